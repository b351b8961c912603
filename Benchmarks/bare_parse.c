/* The practical limit of parsing an evemu file: mmap it and read every canonical event line
 * ("E: SEC.USEC TYPE CODE VALUE", type and code in hex, value in decimal) by hand, with no allocation,
 * no validation and no description. pinchlab's parse is measured against this (Benchmarks/run.sh).
 * Prints one line: "bare events=<n> seconds=<s> events_per_second=<r> checksum=<c>", the checksum
 * computed as Benchmarks/evemu_reference.c does, so the script can check all readers saw the same events. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int hex(unsigned char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE.evemu\n", argv[0]); return 64; }
    double start = now();
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    const unsigned char *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) { perror("mmap"); return 66; }
    const unsigned char *end = p + st.st_size;
    unsigned long long count = 0;
    long long checksum = 0, seconds_sum = 0;
    while (p < end) {
        if (end - p > 3 && p[0] == 'E' && p[1] == ':' && p[2] == ' ') {
            p += 3;
            long long sec = 0, usec = 0; int type = 0, code = 0, value = 0, negative = 0;
            while (*p != '.') sec = sec * 10 + (*p++ - '0');
            p++;
            while (*p != ' ') usec = usec * 10 + (*p++ - '0');
            p++;
            while (*p != ' ') type = type * 16 + hex(*p++);
            p++;
            while (*p != ' ') code = code * 16 + hex(*p++);
            p++;
            if (*p == '-') { negative = 1; p++; }
            while (p < end && *p >= '0' && *p <= '9') value = value * 10 + (*p++ - '0');
            if (negative) value = -value;
            count++;
            checksum += value + code + type;
            seconds_sum += sec + usec;  /* keeps the time fields from being optimized away */
        }
        const unsigned char *newline = memchr(p, '\n', end - p);
        p = newline ? newline + 1 : end;
    }
    double seconds = now() - start;
    printf("bare events=%llu seconds=%.6f events_per_second=%.0f checksum=%lld time_sum=%lld\n",
           count, seconds, count / seconds, checksum, seconds_sum);
    return 0;
}
