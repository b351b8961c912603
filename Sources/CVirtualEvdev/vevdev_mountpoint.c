/* Making sure the mount directory is ours to use: whatever is already mounted
 * there belongs to someone, and detaching it (as `umount -l` would) hides or
 * destroys it (a tmpfs and its files are gone once the last user lets go).
 * Only a dead mount of our own, left by a run whose server died without
 * cleaning up, is detached; anything else is refused. */
#include "vevdev_internal.h"

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* How our mounts appear in /proc/self/mountinfo (the fsname and subtype
 * options given to libfuse in vevdev_mount). */
static const char our_source[] = VEVDEV_FSNAME;
static const char our_fstype[] = "fuse." VEVDEV_SUBTYPE;
/* Dead mounts of ours stacked on one directory that are detached at most. */
enum { max_stale_mounts_detached = 16 };

/* mountinfo escapes space, tab, newline and backslash as \ooo (octal). */
static void unescape_mountinfo(char *s) {
    char *out = s;
    for (char *in = s; *in; in++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
            *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
}

struct mount_entry {
    char fstype[256];
    char source[4096];
};

/* The topmost mount on `path` (an absolute path without symlinks), if any.
 * mountinfo lists mounts in the order they were made, so the last match is
 * the one on top. Fields: id parent major:minor root mountpoint options
 * [optional...] - fstype source superoptions. */
static bool topmost_mount(const char *path, struct mount_entry *found) {
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f) return false;
    bool any = false;
    char *line = NULL;
    size_t capacity = 0;
    while (getline(&line, &capacity, f) > 0) {
        char *save = NULL;
        char *field = strtok_r(line, " \n", &save);
        for (int i = 0; field && i < 4; i++) field = strtok_r(NULL, " \n", &save);
        if (!field) continue;
        unescape_mountinfo(field);
        if (strcmp(field, path) != 0) continue;
        while ((field = strtok_r(NULL, " \n", &save)) && strcmp(field, "-") != 0) {}
        char *fstype = strtok_r(NULL, " \n", &save);
        char *source = strtok_r(NULL, " \n", &save);
        if (!fstype) continue;
        unescape_mountinfo(fstype);
        if (source) unescape_mountinfo(source);
        snprintf(found->fstype, sizeof(found->fstype), "%s", fstype);
        snprintf(found->source, sizeof(found->source), "%s", source ? source : "");
        any = true;
    }
    free(line);
    fclose(f);
    return any;
}

/* `directory` as mountinfo names it. realpath() fails on a dead FUSE mount on
 * some kernels, so the parent is resolved instead and the last component kept. */
static char *canonical_path(const char *directory) {
    char *resolved = realpath(directory, NULL);
    if (resolved) return resolved;
    if (errno == ENOENT) return NULL; /* nothing there, so nothing mounted there */
    char *for_dir = strdup(directory), *for_base = strdup(directory);
    char *parent = (for_dir && for_base) ? realpath(dirname(for_dir), NULL) : NULL;
    char *joined = NULL;
    if (parent) {
        const char *base = basename(for_base);
        size_t size = strlen(parent) + 1 + strlen(base) + 1;
        joined = malloc(size);
        if (joined) snprintf(joined, size, "%s%s%s", parent, strcmp(parent, "/") == 0 ? "" : "/", base);
    }
    free(parent);
    free(for_dir);
    free(for_base);
    return joined;
}


int vevdev_claim_mount_point(const char *directory, char *error, size_t error_size, int *error_number) {
    char *path = canonical_path(directory);
    if (!path) return 0;
    int rc = 0;
    for (int detached = 0;; detached++) {
        struct mount_entry top;
        if (!topmost_mount(path, &top)) break;
        bool ours = strcmp(top.fstype, our_fstype) == 0 && strcmp(top.source, our_source) == 0;
        if (!ours) {
            vevdev_set_error(error, error_size,
                      "%s already has a %s file system (%s) mounted on it; pinchlab never unmounts what it did not "
                      "mount: choose another directory",
                      directory, top.fstype, top.source);
            *error_number = EBUSY;
            rc = -VEVDEV_MOUNT_DIRECTORY_IN_USE;
            break;
        }
        /* Ours: dead when its server is gone (the kernel answers ENOTCONN),
         * alive when another process (or this one) still serves it. */
        struct stat st;
        if (stat(path, &st) == 0 || (errno != ENOTCONN && errno != ECONNABORTED)) {
            vevdev_set_error(error, error_size,
                      "a pinchlab virtual device is already mounted at %s and still served; stop that "
                      "'pinchlab serve' or choose another directory",
                      directory);
            *error_number = EBUSY;
            rc = -VEVDEV_MOUNT_DIRECTORY_IN_USE;
            break;
        }
        if (detached >= max_stale_mounts_detached || umount2(path, MNT_DETACH) != 0) {
            int e = detached >= max_stale_mounts_detached ? EBUSY : errno;
            vevdev_set_error(error, error_size, "cannot detach the dead pinchlab mount at %s: %s", directory, strerror(e));
            *error_number = e;
            rc = -VEVDEV_MOUNT_STALE_MOUNT_STAYS;
            break;
        }
    }
    free(path);
    return rc;
}
