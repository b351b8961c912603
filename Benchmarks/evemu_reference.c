/* The reference the parse benchmark compares pinchlab against: Debian's libevemu reading the same
 * evemu file, evemu_read() for the description, then evemu_read_event() in a loop.
 * Prints one line: "libevemu events=<n> seconds=<s> events_per_second=<r> checksum=<c>".
 * The checksum (sum of values and codes) lets the script check that both readers saw the same events. */
#include <evemu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE.evemu\n", argv[0]); return 64; }
    double start = now();
    FILE *fp = fopen(argv[1], "r");
    if (!fp) { perror(argv[1]); return 66; }
    struct evemu_device *dev = evemu_new(NULL);
    if (!dev || evemu_read(dev, fp) <= 0) { fprintf(stderr, "%s: evemu_read failed\n", argv[1]); return 65; }
    struct input_event ev;
    unsigned long long count = 0;
    long long checksum = 0;
    while (evemu_read_event(fp, &ev) > 0) {
        count++;
        checksum += ev.value + ev.code + ev.type;
    }
    double seconds = now() - start;
    printf("libevemu events=%llu seconds=%.6f events_per_second=%.0f checksum=%lld\n",
           count, seconds, count / seconds, checksum);
    evemu_delete(dev);
    fclose(fp);
    return 0;
}
