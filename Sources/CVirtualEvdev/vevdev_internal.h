#ifndef PINCHLAB_VEVDEV_INTERNAL_H
#define PINCHLAB_VEVDEV_INTERNAL_H
/* Shared between the state model (vevdev_device.c), the ioctls
 * (vevdev_ioctl.c) and the FUSE glue (vevdev_fuse.c). Not visible to Swift. */
#define FUSE_USE_VERSION 312
#include <fuse3/fuse_lowlevel.h>
#include <linux/input.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "virtual_evdev.h"

#define VEVDEV_BITS_PER_LONG (8 * sizeof(unsigned long))
#define VEVDEV_NLONGS(bits) (((bits) + VEVDEV_BITS_PER_LONG - 1) / VEVDEV_BITS_PER_LONG)
/* The kernel's multitouch value range (input_is_mt_value): ABS_MT_TOUCH_MAJOR..ABS_MT_TOOL_Y. */
#define VEVDEV_MT_FIRST ABS_MT_TOUCH_MAJOR
#define VEVDEV_MT_LAST ABS_MT_TOOL_Y
#define VEVDEV_MT_COUNT (VEVDEV_MT_LAST - VEVDEV_MT_FIRST + 1)

/* A feed entry of this type is not an event: it marks where a recording starts
 * (vevdev_enqueue_recording_start). */
#define VEVDEV_RECORDING_START_TYPE 0xffff
/* The marker's code when the recording that starts is a loop's next pass. */
#define VEVDEV_LOOP_PASS_CODE 1

/* How our mounts are named (fsname=, subtype=): mountinfo shows them as
 * source "pinchlab", type "fuse.vevdev". */
#define VEVDEV_FSNAME "pinchlab"
#define VEVDEV_SUBTYPE "vevdev"

/* FUSE worker threads per device; a blocked read() holds one. */
#define VEVDEV_WORKER_THREADS 12

/* Clocks a client may choose with EVIOCSCLOCKID, in the kernel's order. */
enum { VEVDEV_CLOCK_REALTIME, VEVDEV_CLOCK_MONOTONIC, VEVDEV_CLOCK_BOOTTIME, VEVDEV_CLOCK_COUNT };

/* What the input core keeps of a device's state, answered by EVIOCGKEY/LED/
 * SND/SW, EVIOCGABS (the value) and EVIOCGMTSLOTS. */
struct vevdev_state {
    unsigned long key[VEVDEV_NLONGS(KEY_CNT)], led[VEVDEV_NLONGS(LED_CNT)];
    unsigned long snd[VEVDEV_NLONGS(SND_CNT)], sw[VEVDEV_NLONGS(SW_CNT)];
    int32_t abs_value[ABS_CNT]; /* non-MT axes; MT axes keep their initial value, as in the kernel */
    int num_slots, current_slot;
    int32_t *slots; /* num_slots * VEVDEV_MT_COUNT */
};

/* One open file: the kernel's struct evdev_client. */
struct vevdev_client {
    struct vevdev_client *next;
    struct input_event *buffer; /* ring of `bufsize` (a power of two) events */
    unsigned int bufsize, head, tail, packet_head;
    int clock; /* VEVDEV_CLOCK_* */
    bool revoked;
    struct fuse_pollhandle *poll_handle;
    unsigned int mt_request_cursor; /* fallback for EVIOCGMTSLOTS, see vevdev_ioctl.c */
    bool reading; /* has issued read() or poll(): done with its initial ioctls */
    /* The device's state when this file was opened, answered to its state
     * ioctls until it starts reading: every event generated since the open is
     * in its queue, so state + queue never hold an event twice (see
     * vevdev_client_new). NULL: answer from the device's current state. */
    struct vevdev_state *snapshot;
};

struct vevdev {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* CLOCK_MONOTONIC; broadcast on every state change */

    /* description */
    char *name, *phys, *uniq;
    struct input_id id;
    unsigned long propbit[VEVDEV_NLONGS(INPUT_PROP_CNT)];
    unsigned long evbit[VEVDEV_NLONGS(EV_CNT)];
    unsigned long keybit[VEVDEV_NLONGS(KEY_CNT)], relbit[VEVDEV_NLONGS(REL_CNT)];
    unsigned long absbit[VEVDEV_NLONGS(ABS_CNT)], mscbit[VEVDEV_NLONGS(MSC_CNT)];
    unsigned long ledbit[VEVDEV_NLONGS(LED_CNT)], sndbit[VEVDEV_NLONGS(SND_CNT)];
    unsigned long ffbit[VEVDEV_NLONGS(FF_CNT)], swbit[VEVDEV_NLONGS(SW_CNT)];
    struct input_absinfo absinfo[ABS_CNT];
    unsigned int rep[REP_CNT];
    unsigned int client_bufsize_request;
    vevdev_timestamps timestamps;

    /* state, updated by every generated event like the input core does */
    struct vevdev_state state;
    bool in_packet;
    /* A recording just started: its MT events before its first ABS_MT_SLOT
     * belong to slot 0, the slot a freshly created device starts in. */
    bool recording_start_pending;
    struct timeval stamp[VEVDEV_CLOCK_COUNT];
    /* VEVDEV_TIMESTAMPS_READER_CLOCK: the current pass's offset per clock, and
     * the last stamp given (to keep the next pass from going backwards). */
    bool pass_offset_valid, stamped_any;
    /* The pass about to start is the next pass of a loop: its recorded times
     * continue the previous pass's (shifted by the loop step). */
    bool pass_continues_loop;
    int64_t last_stamped_recorded_us;
    int64_t pass_offset_us[VEVDEV_CLOCK_COUNT], last_stamp_us[VEVDEV_CLOCK_COUNT];
    int64_t last_stamp_monotonic_ns;

    /* clients */
    struct vevdev_client *clients;
    int open_count;
    uint64_t total_opens;
    uint64_t total_readers; /* clients that have started reading since the mount */
    /* read lateness (vevdev_read_lateness): every event handed out by read() */
    int64_t read_lateness_first_us, read_lateness_max_us;
    uint64_t read_events;
    uint64_t read_late[VEVDEV_LATENESS_BUCKETS]; /* events read more than 1, 5, 10, 20, 50 ms late */

    /* feed: events not generated yet */
    vevdev_event *feed;
    size_t feed_head, feed_tail, feed_capacity;
    vevdev_event *loop_events;
    size_t loop_count;
    int64_t loop_offset_us, loop_step_us;
    uint64_t generated;

    vevdev_timing timing;
    double speed;
    bool start_on_first_read, started;
    bool anchor_valid;
    int64_t anchor_recorded_us, anchor_monotonic_ns, last_recorded_us;

    bool stalled, removed, stopping;

    /* threads and FUSE */
    bool player_running;
    pthread_t player;
    bool mounted;
    pthread_t workers[VEVDEV_WORKER_THREADS];
    int worker_count;
    struct fuse_session *session;
    char *mountpoint, *node_name;
    int created_levels; /* trailing directories of mountpoint that vevdev_mount made: vevdev_stop removes them */
    int fusermount_socket; /* libfuse's socket to the auto_unmount watcher, or -1 */
    bool unmount_after_crash; /* mount with auto_unmount (true unless set otherwise) */
};

/* vevdev_device.c */
int64_t vevdev_monotonic_ns(void);
/* Records how late `count` events handed to `c` were read (d->lock held). */
void vevdev_note_read(struct vevdev *d, const struct vevdev_client *c, const struct input_event *events, size_t count);
bool vevdev_test_bit(const unsigned long *bits, unsigned int bit);
unsigned int vevdev_client_readable(const struct vevdev_client *c);
struct vevdev_client *vevdev_client_new(struct vevdev *d);
void vevdev_client_free(struct vevdev_client *c);
/* Drops the client's open-time state: from now on its ioctls see the device's. */
void vevdev_client_forget_snapshot(struct vevdev_client *c);
void vevdev_client_queue_syn_dropped(struct vevdev *d, struct vevdev_client *c);
/* Generates pending feed events in "as fast as read" mode until `c` holds at
 * least `wanted` readable events or the feed is empty. Lock held. */
void vevdev_pull(struct vevdev *d, struct vevdev_client *c, unsigned int wanted);
/* Generates events (e.g. written by a client). Lock held. */
void vevdev_generate_now(struct vevdev *d, const struct input_event *events, size_t count);
/* Wakes blocked readers and pollers. Lock held. */
void vevdev_notify(struct vevdev *d);
void vevdev_player_start(struct vevdev *d);
void vevdev_player_join(struct vevdev *d);
void vevdev_on_open(struct vevdev *d);
/* A client's first read() or poll(). Lock held. */
void vevdev_on_first_read(struct vevdev *d, struct vevdev_client *c);

/* vevdev_fuse.c: writes a message into the caller's `error` buffer (if any), as every failing
 * entry point does. */
void vevdev_set_error(char *error, size_t error_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* vevdev_mountpoint.c: 0 when `directory` has nothing mounted on it (after
 * detaching dead mounts of ours), else -VEVDEV_MOUNT_DIRECTORY_IN_USE or
 * -VEVDEV_MOUNT_STALE_MOUNT_STAYS with the errno in *error_number, and why. */
int vevdev_claim_mount_point(const char *directory, char *error, size_t error_size, int *error_number);

/* vevdev_ioctl.c */
void vevdev_ioctl(struct vevdev *d, struct vevdev_client *c, fuse_req_t req, unsigned int cmd, void *arg,
                  const void *in_buf, size_t in_size, size_t out_size);

#endif
