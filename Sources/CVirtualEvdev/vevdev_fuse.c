/* FUSE glue: a directory (inode 1) with one file (inode 2) whose open, read,
 * write, poll and ioctl behave like drivers/input/evdev.c. The session runs
 * on its own worker threads inside the calling process, so a
 * blocking read never holds up ioctls from another thread or process. */
#include "vevdev_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

enum { root_inode = 1, node_inode = 2 };
static const double attribute_timeout_seconds = 1.0;
/* How often a blocked read re-checks whether its caller was interrupted. */
static const int64_t read_interrupt_poll_ns = 50 * 1000 * 1000;
/* FUSE worker threads: each blocked reader holds one while it waits. */
enum { worker_thread_count = VEVDEV_WORKER_THREADS };

/* ---------------------------------------------------------------- libfuse log capture */

static __thread char last_fuse_message[512];

static void capture_fuse_log(enum fuse_log_level level, const char *fmt, va_list ap) {
    (void)level;
    vsnprintf(last_fuse_message, sizeof(last_fuse_message), fmt, ap);
    size_t len = strlen(last_fuse_message);
    while (len > 0 && last_fuse_message[len - 1] == '\n') last_fuse_message[--len] = '\0';
}

/* ---------------------------------------------------------------- mounts to clean at exit */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vevdev *registry[64];
static pthread_once_t process_setup_once = PTHREAD_ONCE_INIT;

static void unmount_all_at_exit(void) {
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
        if (registry[i] && registry[i]->mountpoint) umount2(registry[i]->mountpoint, MNT_DETACH);
    pthread_mutex_unlock(&registry_lock);
}

static void process_setup(void) {
    fuse_set_log_func(capture_fuse_log);
    atexit(unmount_all_at_exit);
}

static void registry_set(struct vevdev *d, bool present) {
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++) {
        if (present && registry[i] == NULL) { registry[i] = d; break; }
        if (!present && registry[i] == d) { registry[i] = NULL; break; }
    }
    pthread_mutex_unlock(&registry_lock);
}

/* ---------------------------------------------------------------- attributes and directory */

static void fill_attr(struct vevdev *d, fuse_ino_t ino, struct stat *st) {
    (void)d;
    memset(st, 0, sizeof(*st));
    st->st_ino = ino;
    st->st_uid = getuid();
    st->st_gid = getgid();
    if (ino == root_inode) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
    } else {
        /* FUSE cannot serve a character device's operations (that is CUSE);
         * libevdev and libinput record only need open/read/ioctl/poll. */
        st->st_mode = S_IFREG | 0660; /* as /dev/input/event* (root:input 0660); enforced by default_permissions */
        st->st_nlink = 1;
    }
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
    struct vevdev *d = fuse_req_userdata(req);
    if (parent != root_inode || strcmp(name, d->node_name) != 0) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    struct fuse_entry_param e = { .ino = node_inode, .attr_timeout = attribute_timeout_seconds,
                                  .entry_timeout = attribute_timeout_seconds };
    fill_attr(d, node_inode, &e.attr);
    fuse_reply_entry(req, &e);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    (void)fi;
    struct vevdev *d = fuse_req_userdata(req);
    if (ino != root_inode && ino != node_inode) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    struct stat st;
    fill_attr(d, ino, &st);
    fuse_reply_attr(req, &st, attribute_timeout_seconds);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)fi;
    struct vevdev *d = fuse_req_userdata(req);
    if (ino != root_inode) {
        fuse_reply_err(req, ENOTDIR);
        return;
    }
    const char *names[] = { ".", "..", d->node_name };
    const fuse_ino_t inodes[] = { root_inode, root_inode, node_inode };
    char *buf = calloc(1, size);
    if (!buf) {
        fuse_reply_err(req, ENOMEM);
        return;
    }
    size_t used = 0;
    for (off_t i = off; i < 3; i++) {
        struct stat st = { .st_ino = inodes[i], .st_mode = (i < 2 ? S_IFDIR : S_IFREG) };
        size_t entry = fuse_add_direntry(req, buf + used, size - used, names[i], &st, i + 1);
        if (entry > size - used) break;
        used += entry;
    }
    fuse_reply_buf(req, buf, used);
    free(buf);
}

/* ---------------------------------------------------------------- the evdev file */

static struct vevdev_client *client_of(struct fuse_file_info *fi) { return (struct vevdev_client *)(uintptr_t)fi->fh; }

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    struct vevdev *d = fuse_req_userdata(req);
    if (ino != node_inode) {
        fuse_reply_err(req, EISDIR);
        return;
    }
    pthread_mutex_lock(&d->lock);
    if (d->removed || d->stopping) {
        pthread_mutex_unlock(&d->lock);
        fuse_reply_err(req, ENODEV);
        return;
    }
    struct vevdev_client *c = vevdev_client_new(d);
    if (!c) {
        pthread_mutex_unlock(&d->lock);
        fuse_reply_err(req, ENOMEM);
        return;
    }
    c->next = d->clients;
    d->clients = c;
    vevdev_on_open(d);
    pthread_mutex_unlock(&d->lock);
    fi->fh = (uint64_t)(uintptr_t)c;
    fi->direct_io = 1;   /* every read reaches us: no page cache */
    /* No FLUSH on close (FOPEN_NOFLUSH, Linux 5.12+): a process that dies
     * with the node open closes it after its own FUSE threads are gone (an
     * in-process device), and a FLUSH then would wait for an answer forever.
     * An earlier probe taught the kernel this with an open of our own after
     * mounting; it was worse: a kill during that open left the process stuck
     * in the kernel forever, holding its own /dev/fuse (so the mount never
     * went), and resetting the counters after it raced a real reader's first
     * open, which then never got its events. */
    fi->noflush = 1;
    fi->nonseekable = 1; /* like a character device */
    fi->keep_cache = 0;
    fuse_reply_open(req, fi);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    (void)ino;
    struct vevdev *d = fuse_req_userdata(req);
    struct vevdev_client *c = client_of(fi);
    pthread_mutex_lock(&d->lock);
    for (struct vevdev_client **p = &d->clients; *p; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    d->open_count--;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
    vevdev_client_free(c);
    fuse_reply_err(req, 0);
}

/* evdev_read(): whole events only, ENODEV once gone, EAGAIN when empty and
 * O_NONBLOCK (fi->flags carries the file's current flags), else block. */
static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)ino;
    (void)off;
    struct vevdev *d = fuse_req_userdata(req);
    struct vevdev_client *c = client_of(fi);
    const size_t event_size = sizeof(struct input_event);
    if (size != 0 && size < event_size) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    size_t room = size / event_size;
    int error = 0;
    struct input_event *out = NULL;
    size_t count = 0;
    pthread_mutex_lock(&d->lock);
    if (!c->reading) vevdev_on_first_read(d, c);
    for (;;) {
        if (d->removed || d->stopping || c->revoked) { error = ENODEV; break; }
        if (!d->stalled) vevdev_pull(d, c, (unsigned int)(room > UINT32_MAX ? UINT32_MAX : room));
        unsigned int readable = d->stalled ? 0 : vevdev_client_readable(c);
        if (readable == 0 && (fi->flags & O_NONBLOCK)) { error = EAGAIN; break; }
        if (size == 0) break;
        if (readable > 0) {
            count = readable < room ? readable : room;
            out = malloc(count * event_size);
            if (!out) { error = ENOMEM; break; }
            for (size_t i = 0; i < count; i++) {
                out[i] = c->buffer[c->tail];
                c->tail = (c->tail + 1) & (c->bufsize - 1);
            }
            vevdev_note_read(d, c, out, count);
            pthread_cond_broadcast(&d->changed); /* vevdev_wait_drained */
            break;
        }
        if (fuse_req_interrupted(req)) { error = EINTR; break; }
        int64_t wake = vevdev_monotonic_ns() + read_interrupt_poll_ns;
        struct timespec deadline = { .tv_sec = wake / 1000000000, .tv_nsec = wake % 1000000000 };
        pthread_cond_timedwait(&d->changed, &d->lock, &deadline);
    }
    pthread_mutex_unlock(&d->lock);
    if (error) fuse_reply_err(req, error);
    else fuse_reply_buf(req, (const char *)out, count * event_size);
    free(out);
}

/* evdev_write(): whole events, injected as if the device had sent them. */
static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)ino;
    (void)off;
    (void)fi;
    struct vevdev *d = fuse_req_userdata(req);
    const size_t event_size = sizeof(struct input_event);
    if (size != 0 && size < event_size) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    size_t count = size / event_size;
    struct input_event *events = malloc(count ? count * event_size : 1);
    if (!events) {
        fuse_reply_err(req, ENOMEM);
        return;
    }
    memcpy(events, buf, count * event_size);
    pthread_mutex_lock(&d->lock);
    bool gone = d->removed || d->stopping;
    if (!gone) vevdev_generate_now(d, events, count);
    pthread_mutex_unlock(&d->lock);
    free(events);
    if (gone) fuse_reply_err(req, ENODEV);
    else fuse_reply_write(req, count * event_size);
}

/* evdev_poll(): always writable while present; POLLERR|POLLHUP once gone. */
static void op_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi, struct fuse_pollhandle *ph) {
    (void)ino;
    struct vevdev *d = fuse_req_userdata(req);
    struct vevdev_client *c = client_of(fi);
    pthread_mutex_lock(&d->lock);
    if (!c->reading) vevdev_on_first_read(d, c);
    if (ph) {
        if (c->poll_handle) fuse_pollhandle_destroy(c->poll_handle);
        c->poll_handle = ph;
    }
    if (!d->stalled) vevdev_pull(d, c, 1);
    bool present = !d->removed && !d->stopping && !c->revoked;
    unsigned int mask = present ? (POLLOUT | POLLWRNORM) : (POLLHUP | POLLERR);
    if (!d->stalled && vevdev_client_readable(c) > 0) mask |= POLLIN | POLLRDNORM;
    pthread_mutex_unlock(&d->lock);
    fuse_reply_poll(req, mask);
}

static void op_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg, struct fuse_file_info *fi,
                     unsigned flags, const void *in_buf, size_t in_bufsz, size_t out_bufsz) {
    struct vevdev *d = fuse_req_userdata(req);
    if (flags & FUSE_IOCTL_COMPAT) {
        fuse_reply_err(req, ENOSYS); /* 32-bit callers: struct layouts differ */
        return;
    }
    if (ino != node_inode || (flags & FUSE_IOCTL_DIR)) {
        fuse_reply_err(req, ENOTTY);
        return;
    }
    pthread_mutex_lock(&d->lock);
    vevdev_ioctl(d, client_of(fi), req, cmd, arg, in_buf, in_bufsz, out_bufsz);
    pthread_mutex_unlock(&d->lock);
}

static const struct fuse_lowlevel_ops vevdev_ops = {
    .lookup = op_lookup,
    .getattr = op_getattr,
    .readdir = op_readdir,
    .open = op_open,
    .release = op_release,
    .read = op_read,
    .write = op_write,
    .poll = op_poll,
    .ioctl = op_ioctl,
};

/* ---------------------------------------------------------------- lifetime */

void vevdev_set_error(char *error, size_t error_size, const char *fmt, ...) {
    if (!error || error_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, error_size, fmt, ap);
    va_end(ap);
}

static void free_fuse_buf(void *arg) { free(((struct fuse_buf *)arg)->mem); }

/* One FUSE worker. Like libfuse's own mt loop, a worker may only be cancelled
 * while it waits for a request, never while it is handling one; unlike that
 * loop, stopping does not need a request to arrive (which never happens once
 * the mount is gone, e.g. detached by someone else). */
static void *worker_main(void *arg) {
    struct vevdev *d = arg;
    struct fuse_buf buf = { .mem = NULL };
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    pthread_cleanup_push(free_fuse_buf, &buf);
    while (!fuse_session_exited(d->session)) {
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
        int res = fuse_session_receive_buf(d->session, &buf);
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
        if (res == -EINTR) continue;
        if (res <= 0) break; /* connection gone */
        fuse_session_process_buf(d->session, &buf);
    }
    pthread_cleanup_pop(1);
    return NULL;
}

/* FUSE and player threads must not take the application's signals (SIGINT...). */
static int start_thread_without_signals(pthread_t *thread, void *(*main)(void *), void *arg) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int rc = pthread_create(thread, NULL, main, arg);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return rc;
}

/* ---------------------------------------------------------------- descriptors libfuse leaves inheritable */

/* The open sockets, as their inode numbers indexed by descriptor (0: no socket
 * there), NULL when /proc is unreadable. By inode, not by number: a number
 * another thread closes and libfuse's socket then takes is still a new socket. */
static ino_t *open_sockets(size_t *count) {
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return NULL;
    size_t capacity = 1024;
    ino_t *sockets = calloc(capacity, sizeof(ino_t));
    struct dirent *entry;
    while (sockets && (entry = readdir(dir))) {
        char *end;
        long fd = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || fd < 0 || entry->d_name[0] == '.' || fd == dirfd(dir)) continue;
        struct stat st;
        if (fstat((int)fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
        while ((size_t)fd >= capacity) {
            ino_t *grown = realloc(sockets, capacity * 2 * sizeof(ino_t));
            if (!grown) { free(sockets); sockets = NULL; break; }
            memset(grown + capacity, 0, capacity * sizeof(ino_t));
            sockets = grown;
            capacity *= 2;
        }
        if (sockets) sockets[fd] = st.st_ino;
    }
    closedir(dir);
    *count = capacity;
    return sockets;
}

/* With auto_unmount, libfuse keeps its socket to fusermount3 open (fusermount3
 * waits for it to close, then unmounts) but never closes it and leaves it
 * without FD_CLOEXEC, so every process started afterwards inherits it: the
 * next mount's fusermount3, a spawned reader. fusermount3 then waits for all
 * of them: watchers pile up for the life of the process, a killed process can
 * leave its mount behind, and two mounts made at once get watchers that wait
 * for each other forever. So when exactly one socket appeared during
 * fuse_session_mount (mounts are serialised, so no other mount's comes in
 * between) it is libfuse's: it is marked close-on-exec, vevdev_stop closes it
 * after unmounting, and the watcher exits. When more appeared, another thread
 * made sockets meanwhile (Foundation's Process makes a socketpair whose end
 * its child must inherit, and waits for the child when that end closes: made
 * close-on-exec, the end closed at exec and the parent blocked in waitpid
 * until the child exited, stopping every Process of the program): none is
 * touched, and libfuse's stays inheritable as libfuse left it. Returns the
 * one, or -1. */
static int keep_new_sockets_from_children(const ino_t *before, size_t before_count) {
    size_t count = 0;
    ino_t *after = open_sockets(&count);
    if (!after || !before) {
        free(after);
        return -1;
    }
    int found = -1, sockets = 0;
    for (size_t fd = 0; fd < count; fd++) {
        if (after[fd] == 0 || (fd < before_count && before[fd] == after[fd])) continue;
        found = (int)fd;
        sockets++;
    }
    free(after);
    if (sockets != 1) return -1;
    int flags = fcntl(found, F_GETFD);
    if (flags >= 0) fcntl(found, F_SETFD, flags | FD_CLOEXEC);
    return found;
}

/* When a process dies, the kernel releases its descriptors from the highest number down, and may
 * run other tasks in between. fusermount3's auto_unmount watcher wakes when its socket is released
 * and unmounts only if opening the mount point then fails with ENOTCONN. libfuse numbers /dev/fuse
 * below its socket (the socket's other end, closed after fusermount3 starts, frees the number
 * /dev/fuse then takes), so the socket would go first: a watcher run in between (a loaded machine,
 * a killed `serve`) opens the still connected mount, its request fails later with ECONNABORTED,
 * and the dead mount stays for good. `reserved`, a descriptor opened before the mount, takes the
 * socket's place when its number is below /dev/fuse's: the socket then outlives the connection.
 * Returns the socket's descriptor; `reserved` is used or closed. */
static int release_after_the_connection(int socket, int fuse_device, int reserved) {
    if (socket >= 0 && reserved >= 0 && reserved < fuse_device && socket > fuse_device &&
        dup3(socket, reserved, O_CLOEXEC) == reserved) {
        close(socket);
        return reserved;
    }
    if (reserved >= 0) close(reserved);
    return socket;
}

/* One mount at a time in this process: see keep_new_sockets_from_children. */
static pthread_mutex_t mount_lock = PTHREAD_MUTEX_INITIALIZER;

/* vevdev_device.c */
void vevdev_prepare_state(struct vevdev *d);

/* Removes `deepest` and then its parents, `levels` directories in all, each
 * only while it is empty (rmdir), so nothing anyone put there is lost. */
static void remove_directories(const char *deepest, int levels) {
    char *path = strdup(deepest);
    if (!path) return;
    for (int i = 0; i < levels; i++) {
        size_t n = strlen(path);
        while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
        char *slash = strrchr(path, '/');
        if (rmdir(path) != 0 || !slash || slash == path) break;
        *slash = '\0';
    }
    free(path);
}

/* Makes `directory` and every missing parent (0755), as mkdir -p does;
 * *created is how many trailing ones it made. On failure nothing it made is
 * left behind: 0 or -errno. */
static int make_directories(const char *directory, int *created) {
    *created = 0;
    char *path = strdup(directory);
    if (!path) return -ENOMEM;
    size_t length = strlen(path), last_made_end = 0;
    int rc = 0;
    for (size_t end = 1; end <= length; end++) {
        if (end < length && path[end] != '/') continue;
        char kept = path[end];
        path[end] = '\0';
        if (mkdir(path, 0755) == 0) {
            (*created)++;
            last_made_end = end;
        } else if (errno != EEXIST) {
            rc = -errno;
            path[last_made_end] = '\0';
            if (*created > 0) remove_directories(path, *created);
            *created = 0;
            break;
        }
        path[end] = kept;
    }
    free(path);
    return rc;
}

/* The directories vevdev_mount made go when the mount does. */
static void remove_created_mountpoint(struct vevdev *d) {
    if (d->created_levels == 0 || !d->mountpoint) return;
    remove_directories(d->mountpoint, d->created_levels);
    d->created_levels = 0;
}

/* A failure of vevdev_mount: the errno for the caller, the code returned. */
static int mount_failure(int *error_number, int errno_value, vevdev_mount_failure failure) {
    if (error_number) *error_number = errno_value;
    return -(int)failure;
}

int vevdev_mount(vevdev *d, const char *directory, const char *node_name, char *error, size_t error_size,
                 int *error_number) {
    pthread_once(&process_setup_once, process_setup);
    if (error_number) *error_number = 0;
    if (d->mounted) {
        vevdev_set_error(error, error_size, "already mounted at %s", d->mountpoint);
        return mount_failure(error_number, EBUSY, VEVDEV_MOUNT_ALREADY_MOUNTED);
    }
    if (access("/dev/fuse", R_OK | W_OK) != 0) {
        int e = errno;
        vevdev_set_error(error, error_size, "/dev/fuse is not usable (%s): this machine or container has no FUSE", strerror(e));
        return mount_failure(error_number, e, VEVDEV_MOUNT_NO_FUSE);
    }
    if (!node_name || !*node_name || strchr(node_name, '/')) {
        vevdev_set_error(error, error_size, "invalid node name '%s'", node_name ? node_name : "");
        return mount_failure(error_number, EINVAL, VEVDEV_MOUNT_INVALID_NODE_NAME);
    }
    /* A crashed earlier run may have left a dead mount of ours ("Transport
     * endpoint is not connected"): that one is detached. Anything else
     * mounted there is someone's and is left alone. */
    int claim_errno = 0;
    int claimed = vevdev_claim_mount_point(directory, error, error_size, &claim_errno);
    if (claimed != 0) return mount_failure(error_number, claim_errno, (vevdev_mount_failure)-claimed);
    int created = 0;
    int made = make_directories(directory, &created);
    if (made != 0) {
        vevdev_set_error(error, error_size, "cannot create the directory: %s", strerror(-made));
        return mount_failure(error_number, -made, VEVDEV_MOUNT_DIRECTORY_UNUSABLE);
    }
    struct stat st;
    if (stat(directory, &st) != 0 || !S_ISDIR(st.st_mode)) {
        vevdev_set_error(error, error_size, "not a directory");
        return mount_failure(error_number, ENOTDIR, VEVDEV_MOUNT_DIRECTORY_UNUSABLE);
    }

    vevdev_prepare_state(d);
    d->node_name = strdup(node_name);
    d->mountpoint = strdup(directory);
    d->created_levels = created;

    char *argv[] = { "pinchlab-vevdev", "-o",
                     d->unmount_after_crash
                         ? "allow_other,default_permissions,fsname=" VEVDEV_FSNAME ",subtype=" VEVDEV_SUBTYPE ",auto_unmount"
                         : "allow_other,default_permissions,fsname=" VEVDEV_FSNAME ",subtype=" VEVDEV_SUBTYPE,
                     NULL };
    struct fuse_args args = FUSE_ARGS_INIT(3, argv);
    last_fuse_message[0] = '\0';
    d->session = fuse_session_new(&args, &vevdev_ops, sizeof(vevdev_ops), d);
    fuse_opt_free_args(&args);
    if (!d->session) {
        vevdev_set_error(error, error_size, "fuse_session_new failed: %s", last_fuse_message[0] ? last_fuse_message : "unknown reason");
        remove_created_mountpoint(d);
        return mount_failure(error_number, EIO, VEVDEV_MOUNT_SESSION_FAILED);
    }
    pthread_mutex_lock(&mount_lock);
    /* Without auto_unmount libfuse keeps no socket: one that appears meanwhile is another thread's
     * (Foundation's socketpair for a child being spawned) and must stay as it is, so the sockets
     * are looked at only with it. */
    size_t descriptor_count = 0;
    ino_t *descriptors_before = d->unmount_after_crash ? open_sockets(&descriptor_count) : NULL;
    int reserved = d->unmount_after_crash ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
    int mounted = fuse_session_mount(d->session, directory);
    int fusermount_socket = d->unmount_after_crash ? keep_new_sockets_from_children(descriptors_before, descriptor_count) : -1;
    pthread_mutex_unlock(&mount_lock);
    free(descriptors_before);
    if (mounted == 0) {
        d->fusermount_socket = release_after_the_connection(fusermount_socket, fuse_session_fd(d->session), reserved);
    } else {
        if (fusermount_socket >= 0) close(fusermount_socket);
        if (reserved >= 0) close(reserved);
    }
    if (mounted != 0) {
        /* Run by another user than root, fusermount3 refuses allow_other unless fuse.conf allows
         * it, and says so only on its own stderr: the likely cause, and one a user can fix. */
        if (geteuid() != 0 && !vevdev_fuse_conf_allows_other("/etc/fuse.conf"))
            vevdev_set_error(error, error_size, "mounting %s failed: run by a user other than root, a mount with "
                             "allow_other (so that libinput and other users may open the node) needs the line "
                             "user_allow_other in /etc/fuse.conf: add it, or run as root", directory);
        else
            vevdev_set_error(error, error_size, "mounting %s failed: %s (FUSE mounts need root or a setuid fusermount3)",
                             directory, last_fuse_message[0] ? last_fuse_message : "unknown reason");
        fuse_session_destroy(d->session);
        d->session = NULL;
        remove_created_mountpoint(d);
        return mount_failure(error_number, EPERM, VEVDEV_MOUNT_MOUNT_FAILED);
    }
    d->mounted = true;
    registry_set(d, true);
    for (int i = 0; i < worker_thread_count; i++) {
        if (start_thread_without_signals(&d->workers[i], worker_main, d) != 0) {
            vevdev_set_error(error, error_size, "cannot start the FUSE threads");
            vevdev_stop(d);
            return mount_failure(error_number, EAGAIN, VEVDEV_MOUNT_THREADS_FAILED);
        }
        d->worker_count++;
    }
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    vevdev_player_start(d);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return 0;
}

void vevdev_stop(vevdev *d) {
    pthread_mutex_lock(&d->lock);
    d->stopping = true;
    vevdev_notify(d);
    pthread_mutex_unlock(&d->lock);
    vevdev_player_join(d);
    if (d->session) fuse_session_exit(d->session);
    for (int i = 0; i < d->worker_count; i++) pthread_cancel(d->workers[i]);
    for (int i = 0; i < d->worker_count; i++) pthread_join(d->workers[i], NULL);
    d->worker_count = 0;
    if (d->session) {
        if (d->mounted) fuse_session_unmount(d->session);
        fuse_session_destroy(d->session);
        d->session = NULL;
    }
    if (d->fusermount_socket >= 0) {
        close(d->fusermount_socket); /* unmounted already: fusermount3 just exits */
        d->fusermount_socket = -1;
    }
    if (d->mounted) {
        d->mounted = false;
        registry_set(d, false);
        remove_created_mountpoint(d);
    }
}

void vevdev_free(vevdev *d) {
    if (!d) return;
    vevdev_stop(d);
    while (d->clients) {
        struct vevdev_client *c = d->clients;
        d->clients = c->next;
        vevdev_client_free(c);
    }
    free(d->name);
    free(d->phys);
    free(d->uniq);
    free(d->state.slots);
    free(d->feed);
    free(d->loop_events);
    free(d->mountpoint);
    free(d->node_name);
    pthread_cond_destroy(&d->changed);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

bool vevdev_fuse_conf_allows_other(const char *path)
{
    FILE *file = fopen(path, "re");
    if (!file) return false;
    char line[512];
    bool allows = false;
    while (!allows && fgets(line, sizeof line, file)) {
        char *comment = strchr(line, '#');
        if (comment) *comment = '\0';
        char *word = line;
        while (*word == ' ' || *word == '\t') word++;
        size_t length = strcspn(word, " \t\r\n");
        const char *rest = word + length;
        while (*rest == ' ' || *rest == '\t' || *rest == '\r' || *rest == '\n') rest++;
        allows = length == strlen("user_allow_other") && strncmp(word, "user_allow_other", length) == 0 && *rest == '\0';
    }
    fclose(file);
    return allows;
}
