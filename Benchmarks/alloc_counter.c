/* Counts heap allocations for the frame benchmark (LD_PRELOAD=alloc_counter.so pinchlab-bench frames).
 * Wraps malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign; counting is off until the
 * benchmark switches it on around its measured loop through pinchlab_alloc_counting(1), found with
 * dlsym. The real allocator is glibc's __libc_* entry points, so no dlsym(RTLD_NEXT) bootstrap
 * recursion. Counts from every thread; the benchmark is single-threaded.
 * PINCHLAB_ALLOC_TRACE=N prints the stacks (backtrace_symbols_fd, which does not allocate) of the
 * first N counted allocations to stderr: where a per-frame allocation comes from. */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_int counting;
static atomic_uint_fast64_t allocations;

static long traces_left = -1;
static __thread int tracing;

void pinchlab_alloc_counting(int on) {
    if (traces_left < 0) {
        const char *trace = getenv("PINCHLAB_ALLOC_TRACE");
        traces_left = trace ? atol(trace) : 0;
        void *warm[1];
        backtrace(warm, 1); /* loads libgcc's unwinder now, not inside a counted allocation */
    }
    atomic_store(&counting, on);
}
uint64_t pinchlab_alloc_count(void) { return atomic_load(&allocations); }

static void trace(void) {
    if (tracing || traces_left <= 0) return;
    tracing = 1;
    traces_left--;
    void *frames[24];
    int n = backtrace(frames, 24);
    write(2, "-- counted allocation\n", 22);
    backtrace_symbols_fd(frames, n, 2);
    tracing = 0;
}

static inline void note(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        if (traces_left > 0) trace();
    }
}

void *malloc(size_t size) { note(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { note(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { note(); return __libc_realloc(p, size); }
void *memalign(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    note();
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
