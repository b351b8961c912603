/* The evdev ioctls, answered the way evdev_do_ioctl() in drivers/input/evdev.c
 * answers them: same sizes, same truncation, same return values, same errors.
 *
 * FUSE gives a regular (non-CUSE) file only "restricted" ioctls: the kernel
 * sizes both directions from _IOC_SIZE(cmd) and _IOC_DIR(cmd), copies the
 * caller's buffer in only for _IOC_WRITE commands and copies our reply back
 * only for _IOC_READ ones. Two evdev ioctls do not fit that model:
 *   - EVIOCGMTSLOTS is _IOC_READ, yet its first u32 (the ABS_MT code wanted) is
 *     an input. We read it from the caller's memory with process_vm_readv()
 *     (we run as root, or at least as the caller's user). If that fails we fall
 *     back to the order libevdev uses (sync_mt_state(): every MT code the
 *     device has, ascending, skipping ABS_MT_SLOT), tracked per open file.
 *   - EVIOCGRAB/EVIOCREVOKE pass an integer as the pointer itself; the kernel's
 *     FUSE layer tries to copy 4 bytes from that "address" and fails with
 *     EFAULT before we see the request. Nothing can be done here, not even per
 *     open file: a FUSE regular file never gets unrestricted ioctls (only
 *     CUSE does). evemu-record grabs and ungrabs to check that nobody else
 *     holds the device, so it refuses this node; evemu-describe works.
 */
#include "vevdev_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#define EVIOC_MASK_SIZE(nr) ((nr) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

/* bits_to_user(): BITS_TO_LONGS(maxbit) longs, truncated to the caller's size. */
static void reply_bits(fuse_req_t req, const unsigned long *bits, unsigned int maxbit, size_t size) {
    size_t len = VEVDEV_NLONGS(maxbit) * sizeof(unsigned long);
    if (len > size) len = size;
    fuse_reply_ioctl(req, (int)len, bits, len);
}

/* str_to_user(): ENOENT without a string, else strlen+1 truncated (then without NUL). */
static void reply_string(fuse_req_t req, const char *s, size_t size) {
    if (!s) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    size_t len = strlen(s) + 1;
    if (len > size) len = size;
    fuse_reply_ioctl(req, (int)len, s, len);
}

static void reply_int(fuse_req_t req, int value, size_t size) {
    if (size < sizeof(int)) {
        fuse_reply_err(req, EFAULT);
        return;
    }
    fuse_reply_ioctl(req, 0, &value, sizeof(value));
}

static bool device_has_mt_code(const struct vevdev *d, unsigned int code) {
    return code >= VEVDEV_MT_FIRST && code <= VEVDEV_MT_LAST && vevdev_test_bit(d->absbit, code);
}

/* Which ABS_MT code the caller put in the first u32 of its buffer. */
static uint32_t requested_mt_code(struct vevdev *d, struct vevdev_client *c, fuse_req_t req, void *arg) {
    uint32_t code = 0;
    const struct fuse_ctx *ctx = fuse_req_ctx(req);
    struct iovec local = { .iov_base = &code, .iov_len = sizeof(code) };
    struct iovec remote = { .iov_base = arg, .iov_len = sizeof(code) };
    if (ctx && ctx->pid > 0 && process_vm_readv(ctx->pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof(code)) {
        c->mt_request_cursor = code;
        return code;
    }
    /* Fallback: the next MT code the device has after the last one asked for. */
    unsigned int cursor = c->mt_request_cursor;
    unsigned int start = (cursor >= VEVDEV_MT_FIRST && cursor <= VEVDEV_MT_LAST) ? cursor + 1 : VEVDEV_MT_FIRST;
    for (unsigned int i = 0; i < VEVDEV_MT_COUNT; i++) {
        unsigned int candidate = VEVDEV_MT_FIRST + (start - VEVDEV_MT_FIRST + i) % VEVDEV_MT_COUNT;
        if (device_has_mt_code(d, candidate)) {
            c->mt_request_cursor = candidate;
            return candidate;
        }
    }
    return ABS_MT_SLOT; /* not an MT value: EINVAL, like the kernel */
}

/* The state this client's state ioctls answer from: its open-time snapshot
 * until it starts reading, then the device's (see vevdev_client_new). */
static const struct vevdev_state *state_for(const struct vevdev *d, const struct vevdev_client *c) {
    return c->snapshot ? c->snapshot : &d->state;
}

/* evdev_handle_mt_request(): values of one MT code for min(slots, room) slots. */
static void reply_mt_slots(struct vevdev *d, struct vevdev_client *c, fuse_req_t req, void *arg, size_t size) {
    if (size < sizeof(uint32_t)) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    uint32_t code = requested_mt_code(d, c, req, arg);
    const struct vevdev_state *state = state_for(d, c);
    if (state->num_slots == 0 || code < VEVDEV_MT_FIRST || code > VEVDEV_MT_LAST) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    size_t room = (size - sizeof(uint32_t)) / sizeof(int32_t);
    size_t n = (size_t)state->num_slots < room ? (size_t)state->num_slots : room;
    int32_t reply[1 + n];
    /* The kernel leaves the code untouched; FUSE copies our whole reply back,
     * so echo it to keep the caller's buffer as it was. */
    memcpy(&reply[0], &code, sizeof(code));
    for (size_t s = 0; s < n; s++) reply[1 + s] = state->slots[s * VEVDEV_MT_COUNT + (code - VEVDEV_MT_FIRST)];
    fuse_reply_ioctl(req, 0, reply, (1 + n) * sizeof(int32_t));
}

static void reply_eviocgbit(struct vevdev *d, fuse_req_t req, unsigned int type, size_t size) {
    switch (type) {
    case 0: reply_bits(req, d->evbit, EV_MAX, size); return;
    case EV_KEY: reply_bits(req, d->keybit, KEY_MAX, size); return;
    case EV_REL: reply_bits(req, d->relbit, REL_MAX, size); return;
    case EV_ABS: reply_bits(req, d->absbit, ABS_MAX, size); return;
    case EV_MSC: reply_bits(req, d->mscbit, MSC_MAX, size); return;
    case EV_LED: reply_bits(req, d->ledbit, LED_MAX, size); return;
    case EV_SND: reply_bits(req, d->sndbit, SND_MAX, size); return;
    case EV_FF: reply_bits(req, d->ffbit, FF_MAX, size); return;
    case EV_SW: reply_bits(req, d->swbit, SW_MAX, size); return;
    default: fuse_reply_err(req, EINVAL); return;
    }
}

static int clock_index(int clkid) {
    switch (clkid) {
    case CLOCK_REALTIME: return VEVDEV_CLOCK_REALTIME;
    case CLOCK_MONOTONIC: return VEVDEV_CLOCK_MONOTONIC;
    case CLOCK_BOOTTIME: return VEVDEV_CLOCK_BOOTTIME;
    default: return -1;
    }
}

/* Lock held. */
void vevdev_ioctl(struct vevdev *d, struct vevdev_client *c, fuse_req_t req, unsigned int cmd, void *arg,
                  const void *in_buf, size_t in_size, size_t out_size) {
    if (d->removed || d->stopping || c->revoked) {
        fuse_reply_err(req, ENODEV);
        return;
    }
    size_t size = _IOC_SIZE(cmd);

    /* fixed-length commands */
    switch (cmd) {
    case EVIOCGVERSION: reply_int(req, EV_VERSION, out_size); return;
    case EVIOCGID: fuse_reply_ioctl(req, 0, &d->id, sizeof(d->id)); return;
    case EVIOCGREP:
        if (!vevdev_test_bit(d->evbit, EV_REP)) fuse_reply_err(req, ENOSYS);
        else fuse_reply_ioctl(req, 0, d->rep, sizeof(d->rep));
        return;
    case EVIOCSREP:
        if (!vevdev_test_bit(d->evbit, EV_REP)) fuse_reply_err(req, ENOSYS);
        else if (in_size < sizeof(d->rep)) fuse_reply_err(req, EFAULT);
        else {
            memcpy(d->rep, in_buf, sizeof(d->rep));
            fuse_reply_ioctl(req, 0, NULL, 0);
        }
        return;
    case EVIOCGKEYCODE: case EVIOCGKEYCODE_V2: case EVIOCSKEYCODE: case EVIOCSKEYCODE_V2:
        fuse_reply_err(req, EINVAL); /* no keymap, like a touch device */
        return;
    case EVIOCGRAB:
        fuse_reply_ioctl(req, 0, NULL, 0); /* only reachable with a real pointer; see the top */
        return;
    case EVIOCREVOKE:
        if (arg) fuse_reply_err(req, EINVAL);
        else {
            c->revoked = true;
            vevdev_notify(d);
            fuse_reply_ioctl(req, 0, NULL, 0);
        }
        return;
    case EVIOCSCLOCKID: {
        int clkid;
        if (in_size < sizeof(clkid)) {
            fuse_reply_err(req, EFAULT);
            return;
        }
        memcpy(&clkid, in_buf, sizeof(clkid));
        int index = clock_index(clkid);
        if (index < 0) {
            fuse_reply_err(req, EINVAL);
            return;
        }
        if (index != c->clock) {
            c->clock = index;
            /* evdev_set_clk_type(): pending events carry the old clock, drop them. */
            if (c->head != c->tail) {
                c->packet_head = c->head = c->tail;
                vevdev_client_queue_syn_dropped(d, c);
                vevdev_client_forget_snapshot(c); /* events were lost: resync from the current state */
            }
        }
        fuse_reply_ioctl(req, 0, NULL, 0);
        return;
    }
    case EVIOCGEFFECTS: reply_int(req, 0, out_size); return;
    default: break;
    }

    /* variable-length commands */
    switch (EVIOC_MASK_SIZE(cmd)) {
    case EVIOCGPROP(0): reply_bits(req, d->propbit, INPUT_PROP_MAX, size); return;
    case EVIOCGMTSLOTS(0): reply_mt_slots(d, c, req, arg, size); return;
    case EVIOCGKEY(0): reply_bits(req, state_for(d, c)->key, KEY_MAX, size); return;
    case EVIOCGLED(0): reply_bits(req, state_for(d, c)->led, LED_MAX, size); return;
    case EVIOCGSND(0): reply_bits(req, state_for(d, c)->snd, SND_MAX, size); return;
    case EVIOCGSW(0): reply_bits(req, state_for(d, c)->sw, SW_MAX, size); return;
    case EVIOCGNAME(0): reply_string(req, d->name, size); return;
    case EVIOCGPHYS(0): reply_string(req, d->phys, size); return;
    case EVIOCGUNIQ(0): reply_string(req, d->uniq, size); return;
    default: break;
    }

    if (_IOC_TYPE(cmd) != 'E') {
        fuse_reply_err(req, EINVAL);
        return;
    }
    if (_IOC_DIR(cmd) == _IOC_READ) {
        if ((_IOC_NR(cmd) & ~EV_MAX) == _IOC_NR(EVIOCGBIT(0, 0))) {
            reply_eviocgbit(d, req, _IOC_NR(cmd) & EV_MAX, size);
            return;
        }
        if ((_IOC_NR(cmd) & ~ABS_MAX) == _IOC_NR(EVIOCGABS(0))) {
            if (!vevdev_test_bit(d->evbit, EV_ABS)) {
                fuse_reply_err(req, EINVAL);
                return;
            }
            unsigned int code = _IOC_NR(cmd) & ABS_MAX;
            struct input_absinfo abs = d->absinfo[code];
            abs.value = state_for(d, c)->abs_value[code];
            size_t len = size < sizeof(abs) ? size : sizeof(abs);
            fuse_reply_ioctl(req, 0, &abs, len);
            return;
        }
    }
    if (_IOC_DIR(cmd) == _IOC_WRITE && (_IOC_NR(cmd) & ~ABS_MAX) == _IOC_NR(EVIOCSABS(0))) {
        unsigned int code = _IOC_NR(cmd) & ABS_MAX;
        if (!vevdev_test_bit(d->evbit, EV_ABS) || code == ABS_MT_SLOT) {
            fuse_reply_err(req, EINVAL);
            return;
        }
        struct input_absinfo abs = d->absinfo[code];
        abs.value = d->state.abs_value[code];
        memcpy(&abs, in_buf, in_size < sizeof(abs) ? in_size : sizeof(abs));
        /* Like the kernel, a short (pre-resolution) struct keeps the old resolution. */
        d->absinfo[code] = abs;
        d->state.abs_value[code] = abs.value;
        fuse_reply_ioctl(req, 0, NULL, 0);
        return;
    }
    fuse_reply_err(req, EINVAL);
}
