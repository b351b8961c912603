#ifndef PINCHLAB_VIRTUAL_EVDEV_H
#define PINCHLAB_VIRTUAL_EVDEV_H
/*
 * A FUSE file that behaves like a kernel evdev node (/dev/input/eventN).
 *
 * This header is the only surface Swift sees. It deliberately uses plain C
 * types (no <linux/input.h>, no FUSE types) so the module does not clash with
 * CEvdev's import of the kernel headers. See Sources/VirtualEvdev/README.md for
 * how the device works (restricted ioctls, state model, SYN_DROPPED).
 *
 * Thread safety: every function may be called from any thread once the device
 * is created; the device serialises internally with one mutex.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vevdev vevdev;

/* One event as recorded: `struct input_event` without the kernel's layout. */
typedef struct vevdev_event {
    int64_t sec;
    int64_t usec;
    uint16_t type;
    uint16_t code;
    int32_t value;
} vevdev_event;

typedef enum vevdev_timestamps {
    /* The events' own times, byte for byte. */
    VEVDEV_TIMESTAMPS_RECORDED = 0,
    /* Like a kernel device: in each reader's clock (CLOCK_REALTIME unless it
     * chose another with EVIOCSCLOCKID), at the recorded intervals. Each
     * playback pass (see vevdev_enqueue_recording_start) gets one constant
     * offset per clock, chosen when its first event is generated: that event
     * is stamped "now", or, if the previous pass ran ahead of the clock
     * (speed > 1, as fast as read), the previous pass's last stamp plus the
     * time since, scaled by the speed, so stamps never go backwards. */
    VEVDEV_TIMESTAMPS_READER_CLOCK = 1,
    /* Each packet stamped "now" in the reader's clock when it is generated. */
    VEVDEV_TIMESTAMPS_GENERATION_TIME = 2,
} vevdev_timestamps;

typedef enum vevdev_timing {
    /* Events are generated lazily, as fast as a reader reads them. */
    VEVDEV_TIMING_AS_FAST_AS_READ = 0,
    /* A player thread generates events at their recorded times (divided by speed). */
    VEVDEV_TIMING_REAL_TIME = 1,
} vevdev_timing;

/* ---- description (call before vevdev_mount) ---- */
vevdev *vevdev_new(const char *name);
void vevdev_set_id(vevdev *d, uint16_t bustype, uint16_t vendor, uint16_t product, uint16_t version);
/* NULL or "" means "none": EVIOCGPHYS/EVIOCGUNIQ then fail with ENOENT, like uinput devices. */
void vevdev_set_phys(vevdev *d, const char *phys);
void vevdev_set_uniq(vevdev *d, const char *uniq);
/* Each returns 0, or -EINVAL for a number the kernel does not define. */
int vevdev_enable_property(vevdev *d, unsigned int property);
int vevdev_enable_code(vevdev *d, unsigned int type, unsigned int code);
int vevdev_set_abs(vevdev *d, unsigned int code, int32_t value, int32_t minimum, int32_t maximum,
                   int32_t fuzz, int32_t flat, int32_t resolution);
/* Initial LED/switch/sound state (EV_LED, EV_SW, EV_SND). */
int vevdev_set_initial_state(vevdev *d, unsigned int type, unsigned int code, int32_t value);
/* Enables EV_REP with these delay/period values (EVIOCGREP). */
void vevdev_set_repeat(vevdev *d, int32_t delay_ms, int32_t period_ms);
/* Per-client queue size in events (rounded up to a power of two, at least 8);
 * 0 = the kernel's own estimate for this device (evdev_compute_buffer_size). */
void vevdev_set_client_buffer_events(vevdev *d, unsigned int events);
/* Whether the mount has libfuse's auto_unmount (on by default): a fusermount3
 * that stays beside the process for the mount's life and unmounts it when the
 * process dies, even by SIGKILL. That fusermount3 is forked from the thread that
 * mounts and keeps every descriptor the process had open without close-on-exec
 * at that moment; a process that mounts many devices while other threads start
 * children (a test run) mounts without it (as root then no fusermount3 at all).
 * Set before vevdev_mount. */
void vevdev_set_unmount_after_crash(vevdev *d, bool on);
/* How generated events are stamped; VEVDEV_TIMESTAMPS_RECORDED by default. */
void vevdev_set_timestamps(vevdev *d, vevdev_timestamps timestamps);

/* ---- lifetime ---- */
/* Why vevdev_mount failed, each a distinct code so the caller decides by it (never by the
 * wording of the message); vevdev_mount returns it negated. */
typedef enum {
    VEVDEV_MOUNT_ALREADY_MOUNTED = 1,  /* this device is mounted already */
    VEVDEV_MOUNT_NO_FUSE,              /* /dev/fuse is missing or not accessible */
    VEVDEV_MOUNT_INVALID_NODE_NAME,    /* empty, or with a '/' */
    VEVDEV_MOUNT_DIRECTORY_IN_USE,     /* another file system, or a live device of ours, is mounted there */
    VEVDEV_MOUNT_STALE_MOUNT_STAYS,    /* a dead mount of ours there could not be detached */
    VEVDEV_MOUNT_DIRECTORY_UNUSABLE,   /* the directory (or a parent) cannot be made, or is not a directory */
    VEVDEV_MOUNT_SESSION_FAILED,       /* fuse_session_new failed */
    VEVDEV_MOUNT_MOUNT_FAILED,         /* the mount itself failed (not root, no setuid fusermount3) */
    VEVDEV_MOUNT_THREADS_FAILED,       /* the FUSE threads could not be started */
} vevdev_mount_failure;

/* Mounts `directory` (created with its missing parents, then removed again by vevdev_stop)
 * holding the single file `node_name`, and starts the FUSE threads.
 * Something already mounted on `directory` is left alone (VEVDEV_MOUNT_DIRECTORY_IN_USE), unless
 * it is a dead mount of ours (fsname "pinchlab", subtype "vevdev", its server gone: "Transport
 * endpoint is not connected"), which is detached first.
 * Returns 0 or a negative vevdev_mount_failure; then *error_number (if not NULL) holds the errno
 * of the call that failed (0 when none did), and `error` a human-readable reason to print. */
int vevdev_mount(vevdev *d, const char *directory, const char *node_name, char *error, size_t error_size,
                 int *error_number);
/* Whether the fuse.conf at `path` holds the option user_allow_other on a line of its own (blank
 * space and comments aside), which a mount with allow_other by a user other than root needs
 * (fusermount3 refuses it otherwise, and says so only on its own stderr). A missing file holds
 * nothing. vevdev_mount names it as the cause of a failed non-root mount when it is missing. */
bool vevdev_fuse_conf_allows_other(const char *path);
/* Unmounts and joins every thread. Idempotent. Readers get ENODEV. */
void vevdev_stop(vevdev *d);
/* Stops if needed, then frees. */
void vevdev_free(vevdev *d);

/* ---- feeding events ---- */
/* start_on_first_read: real-time playback waits for a client's first read() or
 * poll(), i.e. until a libevdev reader has finished its initial ioctls. */
void vevdev_set_timing(vevdev *d, vevdev_timing timing, double speed, bool start_on_first_read);
/* Appends events to the feed (generated according to the timing). */
int vevdev_enqueue(vevdev *d, const vevdev_event *events, size_t count);
/* Marks the start of a recording in the feed: the recording's MT events before
 * its first ABS_MT_SLOT refer to slot 0 (where a new device starts), so if the
 * device is in another slot by then (a previous recording ended there) an
 * ABS_MT_SLOT 0 is generated first. play() and looping mark every pass. */
int vevdev_enqueue_recording_start(vevdev *d);
/* Drops everything not generated yet and any loop. */
void vevdev_clear_feed(vevdev *d);
/* Real-time timing only: whenever the feed runs dry, append these events again,
 * shifted so time keeps increasing (span of the events + gap_us). count 0 stops looping. */
int vevdev_set_loop(vevdev *d, const vevdev_event *events, size_t count, int64_t gap_us);
/* Generates the pending feed and then `events` at once as a burst no client can
 * keep up with: device state follows every event, but each client's queue is
 * replaced by EV_SYN/SYN_DROPPED plus the newest event, exactly as the kernel's
 * evdev buffer does on overflow. */
int vevdev_overflow(vevdev *d, const vevdev_event *events, size_t count);

/* ---- faults ---- */
/* Unplug: reads fail with ENODEV, poll reports POLLERR|POLLHUP, ioctls ENODEV, new opens ENODEV. */
void vevdev_remove(vevdev *d);
/* While stalled nothing is generated and nothing is readable (reads block or EAGAIN). */
void vevdev_stall(vevdev *d, bool stalled);

/* ---- observation ---- */
int vevdev_open_count(vevdev *d);
uint64_t vevdev_total_opens(vevdev *d);
size_t vevdev_pending_count(vevdev *d);
uint64_t vevdev_generated_count(vevdev *d);
/* Blocks until at most `count` events are waiting in the feed; false on timeout
 * (timeout_ms < 0 waits forever) or when the device is stopped/removed. */
bool vevdev_wait_pending_at_most(vevdev *d, size_t count, int timeout_ms);
/* Blocks until nothing is left to read: the feed is empty and no open client
 * has a readable event queued. False on timeout or when stopped/removed. */
bool vevdev_wait_drained(vevdev *d, int timeout_ms);
/* Blocks until the node has been opened at least `opens` times in total. */
bool vevdev_wait_total_opens(vevdev *d, uint64_t opens, int timeout_ms);
/* Clients that have issued their first read() or poll(): a libevdev reader
 * does so only after reading the device's state with ioctls. */
uint64_t vevdev_total_readers(vevdev *d);
bool vevdev_wait_total_readers(vevdev *d, uint64_t readers, int timeout_ms);
/* How late readers read the events they were given: for each event handed out by
 * read(), the reader's clock at the read minus the event's timestamp. Sets the
 * lateness of the first event read and the largest (µs), the number of events
 * read, and how many were read more than 1, 5, 10, 20 and 50 ms late (late[0..4]). A reader whose timers run on
 * the wall clock (libinput) decides differently when events reach it late. */
#define VEVDEV_LATENESS_BUCKETS 5
void vevdev_read_lateness(vevdev *d, int64_t *first_us, int64_t *max_us, uint64_t *events,
                          uint64_t late[VEVDEV_LATENESS_BUCKETS]);

#ifdef __cplusplus
}
#endif
#endif
