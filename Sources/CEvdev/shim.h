#ifndef PINCHLAB_CEVDEV_SHIM_H
#define PINCHLAB_CEVDEV_SHIM_H
/* The only place pinchlab touches libevdev and <linux/input.h> directly.
 * Function-like macros (EVIOCG*, input_event_sec) are not importable into
 * Swift, so the few that are needed are wrapped as inline functions here. */
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <linux/input-event-codes.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static inline long cevdev_event_sec(const struct input_event *ev) { return (long)ev->input_event_sec; }
static inline long cevdev_event_usec(const struct input_event *ev) { return (long)ev->input_event_usec; }
static inline void cevdev_event_set_time(struct input_event *ev, long sec, long usec) {
    ev->input_event_sec = sec; ev->input_event_usec = usec;
}
/* EVIOCSCLOCKID(CLOCK_MONOTONIC) on a raw evdev fd, before libevdev_new_from_fd:
 * the kernel flushes a file's queue (SYN_DROPPED) when its clock changes with
 * events pending, so it is asked first thing after open(). 0 or -errno. */
static inline int cevdev_use_monotonic_clock(int fd) {
    int clock_id = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock_id) == 0 ? 0 : -errno;
}
#endif
