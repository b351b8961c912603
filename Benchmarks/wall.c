/* Times one program as a whole process, the same way for every program Benchmarks/run.sh compares:
 * from just before fork to the return of wait4 (exec, loading, the work, exit and the unmapping of
 * what it mapped). A program's own clock leaves out its start and exit, and the shell's `date`
 * around /usr/bin/time adds two more process starts to whichever it wraps, so the readers were
 * measured unequally before.
 *
 *   wall OUTFILE PROGRAM [ARGS...]
 *
 * The program's stdout goes to OUTFILE; prints "seconds=<s> rss_kb=<peak RSS> status=<exit status>"
 * and exits with the program's status. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s OUTFILE PROGRAM [ARGS...]\n", argv[0]); return 64; }
    int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) { perror(argv[1]); return 66; }
    double start = now();
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 71; }
    if (pid == 0) {
        dup2(out, 1);
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 71; }
    double seconds = now() - start;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("seconds=%.6f rss_kb=%ld status=%d\n", seconds, usage.ru_maxrss, code);
    return code;
}
