/* The device model: description, kernel-like state, client queues, the feed
 * of events still to be generated, and the real-time player thread. */
#include "vevdev_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* evdev.c: EVDEV_MIN_BUFFER_SIZE and EVDEV_BUF_PACKETS. */
enum { kernel_min_buffer_events = 64, kernel_buffer_packets = 8, min_client_buffer_events = 8 };
/* input.c: room the input core adds for EV_KEY and EV_MSC in each packet. */
enum { kernel_key_msc_events_per_packet = 7 };
static const int64_t nanoseconds_per_microsecond = 1000;
static const int64_t microseconds_per_second = 1000000;

int64_t vevdev_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool vevdev_test_bit(const unsigned long *bits, unsigned int bit) {
    return (bits[bit / VEVDEV_BITS_PER_LONG] >> (bit % VEVDEV_BITS_PER_LONG)) & 1UL;
}

static void assign_bit(unsigned long *bits, unsigned int bit, bool on) {
    unsigned long mask = 1UL << (bit % VEVDEV_BITS_PER_LONG);
    if (on) bits[bit / VEVDEV_BITS_PER_LONG] |= mask;
    else bits[bit / VEVDEV_BITS_PER_LONG] &= ~mask;
}

static char *dup_or_null(const char *s) { return (s && *s) ? strdup(s) : NULL; }

static int64_t event_us(const vevdev_event *e) { return e->sec * microseconds_per_second + e->usec; }

/* ---------------------------------------------------------------- description */

vevdev *vevdev_new(const char *name) {
    struct vevdev *d = calloc(1, sizeof(*d));
    if (!d) return NULL;
    pthread_mutex_init(&d->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&d->changed, &attr);
    pthread_condattr_destroy(&attr);
    d->name = strdup(name ? name : "");
    d->speed = 1.0;
    d->fusermount_socket = -1;
    d->unmount_after_crash = true;
    assign_bit(d->evbit, EV_SYN, true);
    return d;
}

void vevdev_set_id(vevdev *d, uint16_t bustype, uint16_t vendor, uint16_t product, uint16_t version) {
    d->id = (struct input_id){ .bustype = bustype, .vendor = vendor, .product = product, .version = version };
}

void vevdev_set_phys(vevdev *d, const char *phys) { free(d->phys); d->phys = dup_or_null(phys); }
void vevdev_set_uniq(vevdev *d, const char *uniq) { free(d->uniq); d->uniq = dup_or_null(uniq); }

int vevdev_enable_property(vevdev *d, unsigned int property) {
    if (property > INPUT_PROP_MAX) return -EINVAL;
    assign_bit(d->propbit, property, true);
    return 0;
}

static unsigned long *code_bits(struct vevdev *d, unsigned int type, unsigned int *max) {
    switch (type) {
    case EV_KEY: *max = KEY_MAX; return d->keybit;
    case EV_REL: *max = REL_MAX; return d->relbit;
    case EV_ABS: *max = ABS_MAX; return d->absbit;
    case EV_MSC: *max = MSC_MAX; return d->mscbit;
    case EV_LED: *max = LED_MAX; return d->ledbit;
    case EV_SND: *max = SND_MAX; return d->sndbit;
    case EV_FF: *max = FF_MAX; return d->ffbit;
    case EV_SW: *max = SW_MAX; return d->swbit;
    default: *max = 0; return NULL;
    }
}

int vevdev_enable_code(vevdev *d, unsigned int type, unsigned int code) {
    if (type > EV_MAX) return -EINVAL;
    if (type == EV_SYN) return 0;
    if (type == EV_REP) {
        assign_bit(d->evbit, EV_REP, true);
        return 0;
    }
    unsigned int max;
    unsigned long *bits = code_bits(d, type, &max);
    if (bits && code > max) return -EINVAL;
    assign_bit(d->evbit, type, true);
    if (bits) assign_bit(bits, code, true);
    return 0;
}

int vevdev_set_abs(vevdev *d, unsigned int code, int32_t value, int32_t minimum, int32_t maximum,
                   int32_t fuzz, int32_t flat, int32_t resolution) {
    if (code > ABS_MAX) return -EINVAL;
    vevdev_enable_code(d, EV_ABS, code);
    d->absinfo[code] = (struct input_absinfo){
        .value = value, .minimum = minimum, .maximum = maximum, .fuzz = fuzz, .flat = flat, .resolution = resolution,
    };
    d->state.abs_value[code] = value;
    return 0;
}

int vevdev_set_initial_state(vevdev *d, unsigned int type, unsigned int code, int32_t value) {
    unsigned int max;
    unsigned long *state;
    switch (type) {
    case EV_LED: state = d->state.led; max = LED_MAX; break;
    case EV_SW: state = d->state.sw; max = SW_MAX; break;
    case EV_SND: state = d->state.snd; max = SND_MAX; break;
    default: return -EINVAL;
    }
    if (code > max) return -EINVAL;
    vevdev_enable_code(d, type, code);
    assign_bit(state, code, value != 0);
    return 0;
}

void vevdev_set_repeat(vevdev *d, int32_t delay_ms, int32_t period_ms) {
    assign_bit(d->evbit, EV_REP, true);
    d->rep[REP_DELAY] = (unsigned int)delay_ms;
    d->rep[REP_PERIOD] = (unsigned int)period_ms;
}

void vevdev_set_client_buffer_events(vevdev *d, unsigned int events) { d->client_bufsize_request = events; }
void vevdev_set_unmount_after_crash(vevdev *d, bool on) {
    d->unmount_after_crash = on;
}

void vevdev_set_timestamps(vevdev *d, vevdev_timestamps timestamps) {
    pthread_mutex_lock(&d->lock);
    d->timestamps = timestamps;
    d->pass_offset_valid = false;
    pthread_mutex_unlock(&d->lock);
}

/* Called once at mount: sizes the slot table like input_mt_init_slots. */
void vevdev_prepare_state(struct vevdev *d);
void vevdev_prepare_state(struct vevdev *d) {
    struct vevdev_state *state = &d->state;
    free(state->slots);
    state->slots = NULL;
    state->num_slots = 0;
    if (vevdev_test_bit(d->absbit, ABS_MT_SLOT) && d->absinfo[ABS_MT_SLOT].maximum >= 0) {
        state->num_slots = d->absinfo[ABS_MT_SLOT].maximum + 1;
        state->slots = calloc((size_t)state->num_slots * VEVDEV_MT_COUNT, sizeof(int32_t));
        for (int s = 0; s < state->num_slots; s++)
            state->slots[s * VEVDEV_MT_COUNT + (ABS_MT_TRACKING_ID - VEVDEV_MT_FIRST)] = -1;
        state->current_slot = d->absinfo[ABS_MT_SLOT].value;
        if (state->current_slot < 0 || state->current_slot >= state->num_slots) state->current_slot = 0;
        state->abs_value[ABS_MT_SLOT] = state->current_slot;
    }
}

static struct vevdev_state *state_copy(const struct vevdev_state *state) {
    struct vevdev_state *copy = malloc(sizeof(*copy));
    if (!copy) return NULL;
    *copy = *state;
    copy->slots = NULL;
    if (state->num_slots > 0) {
        size_t bytes = (size_t)state->num_slots * VEVDEV_MT_COUNT * sizeof(int32_t);
        copy->slots = malloc(bytes);
        if (!copy->slots) {
            free(copy);
            return NULL;
        }
        memcpy(copy->slots, state->slots, bytes);
    }
    return copy;
}

/* ---------------------------------------------------------------- clients */

/* input_estimate_events_per_packet() from drivers/input/input.c. */
static unsigned int estimate_events_per_packet(const struct vevdev *d) {
    unsigned int mt_slots = 0;
    if (d->state.num_slots > 0) {
        mt_slots = (unsigned int)d->state.num_slots;
    } else if (vevdev_test_bit(d->absbit, ABS_MT_TRACKING_ID)) {
        int range = d->absinfo[ABS_MT_TRACKING_ID].maximum - d->absinfo[ABS_MT_TRACKING_ID].minimum + 1;
        mt_slots = range < 2 ? 2 : (range > 32 ? 32 : (unsigned int)range);
    } else if (vevdev_test_bit(d->absbit, ABS_MT_POSITION_X)) {
        mt_slots = 2;
    }
    unsigned int events = mt_slots + 1;
    if (vevdev_test_bit(d->evbit, EV_ABS))
        for (unsigned int code = 0; code < ABS_CNT; code++)
            if (vevdev_test_bit(d->absbit, code))
                events += (code == ABS_MT_SLOT || (code >= VEVDEV_MT_FIRST && code <= VEVDEV_MT_LAST)) ? mt_slots : 1;
    if (vevdev_test_bit(d->evbit, EV_REL))
        for (unsigned int code = 0; code < REL_CNT; code++) events += vevdev_test_bit(d->relbit, code);
    return events + kernel_key_msc_events_per_packet;
}

static unsigned int round_up_power_of_two(unsigned int n) {
    unsigned int p = 1;
    while (p < n) p <<= 1;
    return p;
}

struct vevdev_client *vevdev_client_new(struct vevdev *d) {
    struct vevdev_client *c = calloc(1, sizeof(*c));
    if (!c) return NULL;
    unsigned int wanted = d->client_bufsize_request;
    if (wanted == 0) {
        wanted = estimate_events_per_packet(d) * kernel_buffer_packets;
        if (wanted < kernel_min_buffer_events) wanted = kernel_min_buffer_events;
    }
    if (wanted < min_client_buffer_events) wanted = min_client_buffer_events;
    c->bufsize = round_up_power_of_two(wanted);
    c->buffer = calloc(c->bufsize, sizeof(struct input_event));
    /* The kernel answers state ioctls with the state of the moment, while
     * events keep arriving in the queue of a file that was just opened: an
     * event generated between the open and, say, EVIOCGMTSLOTS is then both in
     * the state a reader synced and in its queue, and libevdev drops the
     * second tracking id as a "double tracking ID". On a kernel device that
     * window is a few microseconds; here every ioctl is a FUSE round trip and
     * a second reader opening during playback hits it often. So each new
     * file answers with the state at its open until it starts reading. */
    c->snapshot = state_copy(&d->state);
    if (!c->buffer || !c->snapshot) {
        vevdev_client_free(c);
        return NULL;
    }
    c->clock = VEVDEV_CLOCK_REALTIME; /* the kernel's default, until EVIOCSCLOCKID */
    return c;
}

void vevdev_client_forget_snapshot(struct vevdev_client *c) {
    if (!c->snapshot) return;
    free(c->snapshot->slots);
    free(c->snapshot);
    c->snapshot = NULL;
}

void vevdev_client_free(struct vevdev_client *c) {
    if (!c) return;
    if (c->poll_handle) fuse_pollhandle_destroy(c->poll_handle);
    vevdev_client_forget_snapshot(c);
    free(c->buffer);
    free(c);
}

unsigned int vevdev_client_readable(const struct vevdev_client *c) {
    return (c->packet_head - c->tail) & (c->bufsize - 1);
}

static unsigned int client_used(const struct vevdev_client *c) { return (c->head - c->tail) & (c->bufsize - 1); }

/* __pass_event() from drivers/input/evdev.c: on overflow everything unread is
 * dropped, leaving SYN_DROPPED plus the newest event; only a SYN_REPORT makes
 * events readable. `force_overflow` behaves as if the queue were full. */
static void client_pass(struct vevdev_client *c, const struct input_event *ev, bool force_overflow) {
    unsigned int mask = c->bufsize - 1;
    c->buffer[c->head++] = *ev;
    c->head &= mask;
    if (c->head == c->tail || force_overflow) {
        c->tail = (c->head - 2) & mask;
        c->buffer[c->tail] = (struct input_event){ .time = ev->time, .type = EV_SYN, .code = SYN_DROPPED, .value = 0 };
        c->packet_head = c->tail;
        /* Events were lost: the reader resyncs from the current state. */
        vevdev_client_forget_snapshot(c);
    }
    if (ev->type == EV_SYN && ev->code == SYN_REPORT) c->packet_head = c->head;
}

static struct timeval now_in_clock(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (struct timeval){ .tv_sec = ts.tv_sec, .tv_usec = ts.tv_nsec / nanoseconds_per_microsecond };
}

static const clockid_t client_clocks[VEVDEV_CLOCK_COUNT] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME };

/* __evdev_queue_syn_dropped(): used when a client switches clocks with events pending. */
void vevdev_client_queue_syn_dropped(struct vevdev *d, struct vevdev_client *c) {
    (void)d;
    struct input_event ev = { .time = now_in_clock(client_clocks[c->clock]), .type = EV_SYN, .code = SYN_DROPPED };
    c->buffer[c->head] = ev;
    c->head = (c->head + 1) & (c->bufsize - 1);
    if (c->head == c->tail) c->tail = (c->tail + 1) & (c->bufsize - 1);
    c->packet_head = c->head;
}

/* ---------------------------------------------------------------- state */

/* What input_handle_event() keeps for EVIOCGKEY/EVIOCGABS/EVIOCGMTSLOTS. Events
 * are delivered verbatim (a recording already went through the kernel's
 * filters), so only the state bookkeeping is mirrored here. */
static void apply_state(struct vevdev_state *state, unsigned int type, unsigned int code, int32_t value) {
    switch (type) {
    case EV_KEY: if (code <= KEY_MAX) assign_bit(state->key, code, value != 0); break;
    case EV_LED: if (code <= LED_MAX) assign_bit(state->led, code, value != 0); break;
    case EV_SND: if (code <= SND_MAX) assign_bit(state->snd, code, value != 0); break;
    case EV_SW: if (code <= SW_MAX) assign_bit(state->sw, code, value != 0); break;
    case EV_ABS:
        if (code > ABS_MAX) break;
        if (code == ABS_MT_SLOT) {
            if (state->num_slots > 0 && value >= 0 && value < state->num_slots) {
                state->current_slot = value;
                state->abs_value[ABS_MT_SLOT] = value;
            }
        } else if (code >= VEVDEV_MT_FIRST && code <= VEVDEV_MT_LAST) {
            /* The kernel keeps MT values per slot only; absinfo[code] stays as it was. */
            if (state->num_slots > 0)
                state->slots[state->current_slot * VEVDEV_MT_COUNT + (code - VEVDEV_MT_FIRST)] = value;
        } else {
            state->abs_value[code] = value;
        }
        break;
    default: break;
    }
}

static int64_t timeval_us(struct timeval tv) { return (int64_t)tv.tv_sec * microseconds_per_second + tv.tv_usec; }

static struct timeval us_timeval(int64_t us) {
    int64_t sec = us / microseconds_per_second, usec = us % microseconds_per_second;
    if (usec < 0) { sec -= 1; usec += microseconds_per_second; }
    return (struct timeval){ .tv_sec = (time_t)sec, .tv_usec = (suseconds_t)usec };
}

/* VEVDEV_TIMESTAMPS_READER_CLOCK: the offsets that put the first event of a
 * pass at "now" in every clock, or later if the previous pass ran ahead of the
 * clock, so stamps never go backwards. A loop's next pass continues in
 * recorded time (its recorded times are the previous pass's shifted by the
 * loop step, pause included), so the pause between passes is the recorded one
 * however late the player thread ran; any other new recording continues from
 * the last stamp by the time since it was given, scaled by the playback speed
 * (the rate its recorded time was passing at). */
static void choose_pass_offsets(struct vevdev *d, int64_t recorded_us) {
    int64_t now_ns = vevdev_monotonic_ns();
    double rate = d->timing == VEVDEV_TIMING_REAL_TIME ? d->speed : 1.0;
    for (int clock = 0; clock < VEVDEV_CLOCK_COUNT; clock++) {
        int64_t start = timeval_us(now_in_clock(client_clocks[clock]));
        if (d->stamped_any) {
            int64_t continued;
            if (d->pass_continues_loop && recorded_us >= d->last_stamped_recorded_us) {
                continued = d->last_stamp_us[clock] + (recorded_us - d->last_stamped_recorded_us);
            } else {
                double since_us = (double)(now_ns - d->last_stamp_monotonic_ns) / (double)nanoseconds_per_microsecond;
                continued = d->last_stamp_us[clock] + (int64_t)(since_us * rate);
            }
            if (continued > start) start = continued;
        }
        d->pass_offset_us[clock] = start - recorded_us;
    }
    d->pass_offset_valid = true;
}

/* The time each clock's clients see on event `e`. */
static void stamp(struct vevdev *d, const vevdev_event *e, struct timeval stamps[VEVDEV_CLOCK_COUNT]) {
    switch (d->timestamps) {
    case VEVDEV_TIMESTAMPS_READER_CLOCK: {
        int64_t recorded = event_us(e);
        if (!d->pass_offset_valid) choose_pass_offsets(d, recorded);
        for (int clock = 0; clock < VEVDEV_CLOCK_COUNT; clock++) {
            d->last_stamp_us[clock] = recorded + d->pass_offset_us[clock];
            stamps[clock] = us_timeval(d->last_stamp_us[clock]);
        }
        d->last_stamped_recorded_us = recorded;
        d->last_stamp_monotonic_ns = vevdev_monotonic_ns();
        d->stamped_any = true;
        return;
    }
    case VEVDEV_TIMESTAMPS_GENERATION_TIME:
        /* One time per packet, as the kernel stamps a whole frame at once. */
        if (!d->in_packet)
            for (int clock = 0; clock < VEVDEV_CLOCK_COUNT; clock++) d->stamp[clock] = now_in_clock(client_clocks[clock]);
        for (int clock = 0; clock < VEVDEV_CLOCK_COUNT; clock++) stamps[clock] = d->stamp[clock];
        return;
    case VEVDEV_TIMESTAMPS_RECORDED:
    default:
        for (int clock = 0; clock < VEVDEV_CLOCK_COUNT; clock++)
            stamps[clock] = (struct timeval){ .tv_sec = (time_t)e->sec, .tv_usec = (suseconds_t)e->usec };
        return;
    }
}

static void generate(struct vevdev *d, const vevdev_event *e, bool force_overflow) {
    if (e->type == VEVDEV_RECORDING_START_TYPE) {
        d->recording_start_pending = true;
        d->pass_offset_valid = false;
        d->pass_continues_loop = e->code == VEVDEV_LOOP_PASS_CODE;
        return;
    }
    if (d->recording_start_pending && e->type == EV_ABS) {
        if (e->code == ABS_MT_SLOT) {
            d->recording_start_pending = false;
        } else if (e->code >= VEVDEV_MT_FIRST && e->code <= VEVDEV_MT_LAST) {
            d->recording_start_pending = false;
            /* The recording was made from slot 0 and never said so; this
             * device is elsewhere (the previous pass ended in another slot).
             * Say it, as the input core would have before this event. */
            if (d->state.num_slots > 0 && d->state.current_slot != 0) {
                vevdev_event slot = *e;
                slot.code = ABS_MT_SLOT;
                slot.value = 0;
                generate(d, &slot, force_overflow);
            }
        }
    }
    struct timeval stamps[VEVDEV_CLOCK_COUNT];
    stamp(d, e, stamps);
    d->in_packet = !(e->type == EV_SYN && e->code == SYN_REPORT);
    apply_state(&d->state, e->type, e->code, e->value);
    struct input_event ev = { .type = e->type, .code = e->code, .value = e->value };
    for (struct vevdev_client *c = d->clients; c; c = c->next) {
        if (c->revoked) continue;
        ev.time = stamps[c->clock];
        client_pass(c, &ev, force_overflow);
    }
    d->generated++;
}

void vevdev_generate_now(struct vevdev *d, const struct input_event *events, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const struct input_event *in = &events[i];
        if (in->type != EV_SYN) {
            unsigned int max;
            unsigned long *bits = code_bits(d, in->type, &max);
            /* input_inject_event() ignores what the device cannot send. */
            if (!vevdev_test_bit(d->evbit, in->type) || (bits && (in->code > max || !vevdev_test_bit(bits, in->code))))
                continue;
        }
        vevdev_event e = { .sec = in->time.tv_sec, .usec = in->time.tv_usec, .type = in->type, .code = in->code, .value = in->value };
        generate(d, &e, false);
    }
    vevdev_notify(d);
}

static size_t feed_count(const struct vevdev *d);

void vevdev_notify(struct vevdev *d) {
    pthread_cond_broadcast(&d->changed);
    /* In "as fast as read" timing the feed counts as readable: poll() generates on demand. */
    bool feed_readable = d->timing == VEVDEV_TIMING_AS_FAST_AS_READ && !d->stalled && feed_count(d) > 0;
    for (struct vevdev_client *c = d->clients; c; c = c->next) {
        bool readable = !d->stalled && (vevdev_client_readable(c) > 0 || feed_readable);
        if (c->poll_handle && (d->removed || d->stopping || c->revoked || readable))
            fuse_lowlevel_notify_poll(c->poll_handle);
    }
}

/* ---------------------------------------------------------------- feed */

static size_t feed_count(const struct vevdev *d) { return d->feed_tail - d->feed_head; }

static int feed_append(struct vevdev *d, const vevdev_event *events, size_t count, int64_t offset_us) {
    if (d->feed_head > 0 && d->feed_head == d->feed_tail) d->feed_head = d->feed_tail = 0;
    if (d->feed_tail + count > d->feed_capacity) {
        size_t live = feed_count(d);
        if (d->feed_head > 0) { /* compact before growing */
            memmove(d->feed, d->feed + d->feed_head, live * sizeof(vevdev_event));
            d->feed_head = 0;
            d->feed_tail = live;
        }
        if (live + count > d->feed_capacity) {
            size_t capacity = d->feed_capacity ? d->feed_capacity : 1024;
            while (capacity < live + count) capacity *= 2;
            vevdev_event *grown = realloc(d->feed, capacity * sizeof(vevdev_event));
            if (!grown) return -ENOMEM;
            d->feed = grown;
            d->feed_capacity = capacity;
        }
    }
    for (size_t i = 0; i < count; i++) {
        vevdev_event e = events[i];
        if (offset_us) {
            int64_t t = e.sec * microseconds_per_second + e.usec + offset_us;
            e.sec = t / microseconds_per_second;
            e.usec = t % microseconds_per_second;
        }
        d->feed[d->feed_tail++] = e;
    }
    return 0;
}


static int feed_append_recording_start(struct vevdev *d, bool next_loop_pass) {
    const vevdev_event marker = { .type = VEVDEV_RECORDING_START_TYPE, .code = next_loop_pass ? VEVDEV_LOOP_PASS_CODE : 0 };
    return feed_append(d, &marker, 1, 0);
}

static bool is_recording_start(const vevdev_event *e) { return e->type == VEVDEV_RECORDING_START_TYPE; }

/* Real-time looping: refill the feed with the next, time-shifted copy. */
static void refill_loop(struct vevdev *d) {
    if (d->timing != VEVDEV_TIMING_REAL_TIME || d->loop_count == 0 || feed_count(d) > 0) return;
    d->loop_offset_us += d->loop_step_us;
    feed_append_recording_start(d, true);
    feed_append(d, d->loop_events, d->loop_count, d->loop_offset_us);
}

int vevdev_enqueue_recording_start(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    int rc = feed_append_recording_start(d, false);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

int vevdev_enqueue(vevdev *d, const vevdev_event *events, size_t count) {
    pthread_mutex_lock(&d->lock);
    int rc = feed_append(d, events, count, 0);
    vevdev_notify(d);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

void vevdev_clear_feed(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    d->feed_head = d->feed_tail = 0;
    free(d->loop_events);
    d->loop_events = NULL;
    d->loop_count = 0;
    d->anchor_valid = false;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
}

int vevdev_set_loop(vevdev *d, const vevdev_event *events, size_t count, int64_t gap_us) {
    vevdev_event *copy = NULL;
    if (count > 0) {
        copy = malloc(count * sizeof(vevdev_event));
        if (!copy) return -ENOMEM;
        memcpy(copy, events, count * sizeof(vevdev_event));
    }
    pthread_mutex_lock(&d->lock);
    free(d->loop_events);
    d->loop_events = copy;
    d->loop_count = count;
    d->loop_offset_us = 0;
    int64_t span = count > 0 ? event_us(&events[count - 1]) - event_us(&events[0]) : 0;
    d->loop_step_us = (span > 0 ? span : 0) + (gap_us > 0 ? gap_us : 0);
    int rc = 0;
    if (count > 0) {
        feed_append_recording_start(d, false);
        rc = feed_append(d, copy, count, 0);
    }
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

void vevdev_set_timing(vevdev *d, vevdev_timing timing, double speed, bool start_on_first_read) {
    pthread_mutex_lock(&d->lock);
    d->timing = timing;
    d->speed = (speed > 0 && speed < 1e9) ? speed : 1.0;
    d->start_on_first_read = start_on_first_read;
    d->started = !start_on_first_read || d->total_readers > 0;
    d->anchor_valid = false;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
}

void vevdev_pull(struct vevdev *d, struct vevdev_client *c, unsigned int wanted) {
    if (d->timing != VEVDEV_TIMING_AS_FAST_AS_READ || d->stalled || d->removed) return;
    /* Leave room for one more packet so lazy generation never overflows this client. */
    unsigned int limit = c->bufsize / 2;
    if (wanted > limit) wanted = limit;
    if (wanted == 0) wanted = 1;
    bool any = false;
    while (feed_count(d) > 0 && (vevdev_client_readable(c) < wanted || d->in_packet) && client_used(c) < limit) {
        generate(d, &d->feed[d->feed_head++], false);
        any = true;
    }
    if (any) {
        vevdev_notify(d);
    }
}

int vevdev_overflow(vevdev *d, const vevdev_event *events, size_t count) {
    pthread_mutex_lock(&d->lock);
    if (d->removed || d->stopping) {
        pthread_mutex_unlock(&d->lock);
        return -ENODEV;
    }
    while (feed_count(d) > 0) generate(d, &d->feed[d->feed_head++], true);
    for (size_t i = 0; i < count; i++) generate(d, &events[i], true);
    vevdev_notify(d);
    pthread_mutex_unlock(&d->lock);
    return 0;
}

/* ---------------------------------------------------------------- faults and observation */

void vevdev_remove(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    d->removed = true;
    vevdev_notify(d);
    pthread_mutex_unlock(&d->lock);
}

void vevdev_stall(vevdev *d, bool stalled) {
    pthread_mutex_lock(&d->lock);
    d->stalled = stalled;
    d->anchor_valid = false; /* resume playing from "now", no catch-up burst */
    vevdev_notify(d);
    pthread_mutex_unlock(&d->lock);
}

void vevdev_on_open(struct vevdev *d) {
    d->open_count++;
    d->total_opens++;
    pthread_cond_broadcast(&d->changed);
}

/* libevdev (and libinput record) read the device's state with ioctls after
 * open() and only then read(): an event generated between the two would be
 * in both the state and the queue. Playback therefore starts at the first read. */
void vevdev_on_first_read(struct vevdev *d, struct vevdev_client *c) {
    c->reading = true;
    /* Done with its initial ioctls; a later resync must see the current state. */
    vevdev_client_forget_snapshot(c);
    d->total_readers++;
    if (d->start_on_first_read && !d->started) {
        d->started = true;
        d->anchor_valid = false;
    }
    pthread_cond_broadcast(&d->changed);
}

int vevdev_open_count(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    int n = d->open_count;
    pthread_mutex_unlock(&d->lock);
    return n;
}

uint64_t vevdev_total_opens(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    uint64_t n = d->total_opens;
    pthread_mutex_unlock(&d->lock);
    return n;
}

static const int64_t lateness_bucket_us[VEVDEV_LATENESS_BUCKETS] = { 1000, 5000, 10000, 20000, 50000 };

void vevdev_note_read(struct vevdev *d, const struct vevdev_client *c, const struct input_event *events, size_t count) {
    struct timeval now = now_in_clock(client_clocks[c->clock]);
    int64_t now_us = (int64_t)now.tv_sec * 1000000 + now.tv_usec;
    for (size_t i = 0; i < count; i++) {
        int64_t late = now_us - ((int64_t)events[i].time.tv_sec * 1000000 + events[i].time.tv_usec);
        if (d->read_events == 0) d->read_lateness_first_us = late;
        if (late > d->read_lateness_max_us) d->read_lateness_max_us = late;
        for (int b = 0; b < VEVDEV_LATENESS_BUCKETS; b++) if (late > lateness_bucket_us[b]) d->read_late[b]++;
        d->read_events++;
    }
}

void vevdev_read_lateness(vevdev *d, int64_t *first_us, int64_t *max_us, uint64_t *events,
                          uint64_t late[VEVDEV_LATENESS_BUCKETS]) {
    pthread_mutex_lock(&d->lock);
    if (first_us) *first_us = d->read_lateness_first_us;
    if (max_us) *max_us = d->read_lateness_max_us;
    if (events) *events = d->read_events;
    if (late) for (int b = 0; b < VEVDEV_LATENESS_BUCKETS; b++) late[b] = d->read_late[b];
    pthread_mutex_unlock(&d->lock);
}

uint64_t vevdev_total_readers(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    uint64_t n = d->total_readers;
    pthread_mutex_unlock(&d->lock);
    return n;
}

size_t vevdev_pending_count(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    size_t n = feed_count(d);
    pthread_mutex_unlock(&d->lock);
    return n;
}

uint64_t vevdev_generated_count(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    uint64_t n = d->generated;
    pthread_mutex_unlock(&d->lock);
    return n;
}

static struct timespec deadline_after_ms(int timeout_ms) {
    int64_t ns = vevdev_monotonic_ns() + (int64_t)timeout_ms * 1000000;
    return (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
}

bool vevdev_wait_pending_at_most(vevdev *d, size_t count, int timeout_ms) {
    struct timespec deadline = deadline_after_ms(timeout_ms);
    pthread_mutex_lock(&d->lock);
    bool ok;
    for (;;) {
        if (feed_count(d) <= count) { ok = true; break; }
        if (d->stopping || d->removed) { ok = false; break; }
        if (timeout_ms < 0) pthread_cond_wait(&d->changed, &d->lock);
        else if (pthread_cond_timedwait(&d->changed, &d->lock, &deadline) == ETIMEDOUT) { ok = feed_count(d) <= count; break; }
    }
    pthread_mutex_unlock(&d->lock);
    return ok;
}

static bool drained(const struct vevdev *d) {
    if (feed_count(d) > 0) return false;
    for (const struct vevdev_client *c = d->clients; c; c = c->next)
        if (!c->revoked && vevdev_client_readable(c) > 0) return false;
    return true;
}

bool vevdev_wait_drained(vevdev *d, int timeout_ms) {
    struct timespec deadline = deadline_after_ms(timeout_ms);
    pthread_mutex_lock(&d->lock);
    bool ok;
    for (;;) {
        if (d->stopping || d->removed) { ok = false; break; }
        if (drained(d)) { ok = true; break; }
        if (timeout_ms < 0) pthread_cond_wait(&d->changed, &d->lock);
        else if (pthread_cond_timedwait(&d->changed, &d->lock, &deadline) == ETIMEDOUT) { ok = drained(d); break; }
    }
    pthread_mutex_unlock(&d->lock);
    return ok;
}

static bool wait_counter_at_least(vevdev *d, const uint64_t *counter, uint64_t wanted, int timeout_ms) {
    struct timespec deadline = deadline_after_ms(timeout_ms);
    pthread_mutex_lock(&d->lock);
    bool ok;
    for (;;) {
        if (*counter >= wanted) { ok = true; break; }
        if (d->stopping) { ok = false; break; }
        if (timeout_ms < 0) pthread_cond_wait(&d->changed, &d->lock);
        else if (pthread_cond_timedwait(&d->changed, &d->lock, &deadline) == ETIMEDOUT) { ok = *counter >= wanted; break; }
    }
    pthread_mutex_unlock(&d->lock);
    return ok;
}

bool vevdev_wait_total_opens(vevdev *d, uint64_t opens, int timeout_ms) {
    return wait_counter_at_least(d, &d->total_opens, opens, timeout_ms);
}

bool vevdev_wait_total_readers(vevdev *d, uint64_t readers, int timeout_ms) {
    return wait_counter_at_least(d, &d->total_readers, readers, timeout_ms);
}

/* ---------------------------------------------------------------- real-time player */

/* Monotonic time at which the next feed event is due; re-anchors when there is
 * no anchor yet or recorded time went backwards. */
static int64_t due_ns(struct vevdev *d, const vevdev_event *e) {
    int64_t t = event_us(e);
    if (!d->anchor_valid || t < d->last_recorded_us) {
        d->anchor_valid = true;
        d->anchor_recorded_us = t;
        d->anchor_monotonic_ns = vevdev_monotonic_ns();
    }
    d->last_recorded_us = t;
    double offset_ns = (double)(t - d->anchor_recorded_us) * (double)nanoseconds_per_microsecond / d->speed;
    return d->anchor_monotonic_ns + (int64_t)offset_ns;
}

static void *player_main(void *arg) {
    struct vevdev *d = arg;
    pthread_mutex_lock(&d->lock);
    while (!d->stopping) {
        refill_loop(d);
        bool can_play = d->timing == VEVDEV_TIMING_REAL_TIME && d->started && !d->stalled && !d->removed &&
                        feed_count(d) > 0;
        if (!can_play) {
            pthread_cond_wait(&d->changed, &d->lock);
            continue;
        }
        /* A marker has no time of its own: it goes with the event after it. */
        while (feed_count(d) > 0 && is_recording_start(&d->feed[d->feed_head])) generate(d, &d->feed[d->feed_head++], false);
        if (feed_count(d) == 0) continue;
        int64_t due = due_ns(d, &d->feed[d->feed_head]);
        int64_t now = vevdev_monotonic_ns();
        if (due > now) {
            struct timespec deadline = { .tv_sec = due / 1000000000, .tv_nsec = due % 1000000000 };
            pthread_cond_timedwait(&d->changed, &d->lock, &deadline);
            continue;
        }
        generate(d, &d->feed[d->feed_head++], false);
        /* Everything else already due goes out in the same batch. */
        while (feed_count(d) > 0 && !d->stalled && due_ns(d, &d->feed[d->feed_head]) <= now)
            generate(d, &d->feed[d->feed_head++], false);
        vevdev_notify(d);
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

void vevdev_player_start(struct vevdev *d) {
    d->player_running = pthread_create(&d->player, NULL, player_main, d) == 0;
}

void vevdev_player_join(struct vevdev *d) {
    if (!d->player_running) return;
    pthread_join(d->player, NULL);
    d->player_running = false;
}
