/* See include/udev_preload.h. One fake udev_device, recognised by its address; the rest of
 * libudev is untouched. libudev's types stay opaque: only pointers cross this file. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "udev_preload.h"

struct udev;
struct udev_device;
struct udev_list_entry;

const char *pinchlab_udev_preload_version(void) { return "1"; }

/* pinchlab stops the libinput it started with SIGINT once the recording was played; a pinchlab
 * that is killed cannot, and libinput would wait for devices forever, its output unread. So a
 * process started with PINCHLAB_PARENT_PID ends (SIGTERM) when that parent does; if the parent
 * is gone already, it ends now. (The death signal follows the thread that started the child:
 * pinchlab's bridge waits for libinput on that thread.) */
__attribute__((constructor)) static void end_with_the_parent(void) {
    const char *parent = getenv("PINCHLAB_PARENT_PID");
    if (!parent || !*parent) return;
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != (pid_t)atol(parent)) raise(SIGTERM);
}


/* The fake device: its address is its identity. */
static struct {
    int refcount;
    struct udev *udev;
    dev_t devnum;
    char devnode[4096];
    char sysname[64];
    char syspath[4200];
    int touchscreen;
} fake;

#define FAKE ((struct udev_device *)&fake)

static int is_fake(struct udev_device *device) { return device == FAKE; }

/* The real function `name` of type `type`, looked up once. */
#define REAL(type, name)                                                   \
    static type real_##name;                                               \
    if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

/* The node this process is told about, and its device number, or 0 when none. */
static int served_node(dev_t *devnum) {
    const char *node = getenv("PINCHLAB_UDEV_DEVNODE");
    struct stat st;
    if (!node || !*node || strlen(node) >= sizeof fake.devnode || stat(node, &st) != 0) return 0;
    *devnum = st.st_rdev;
    return 1;
}

typedef struct udev_device *(*new_from_devnum_fn)(struct udev *, char, dev_t);
struct udev_device *udev_device_new_from_devnum(struct udev *udev, char type, dev_t devnum) {
    dev_t served;
    if (type == 'c' && served_node(&served) && served == devnum) {
        const char *sysname = getenv("PINCHLAB_UDEV_SYSNAME");
        const char *class = getenv("PINCHLAB_UDEV_CLASS");
        if (!sysname || !*sysname || strlen(sysname) >= sizeof fake.sysname) sysname = "event0";
        snprintf(fake.devnode, sizeof fake.devnode, "%s", getenv("PINCHLAB_UDEV_DEVNODE"));
        snprintf(fake.sysname, sizeof fake.sysname, "%s", sysname);
        snprintf(fake.syspath, sizeof fake.syspath, "/sys/devices/virtual/input/pinchlab/%s", sysname);
        fake.touchscreen = class && strcmp(class, "touchscreen") == 0;
        fake.devnum = devnum;
        fake.udev = udev;
        fake.refcount++;
        return FAKE;
    }
    REAL(new_from_devnum_fn, udev_device_new_from_devnum);
    return real_udev_device_new_from_devnum ? real_udev_device_new_from_devnum(udev, type, devnum) : NULL;
}

/* Forwards `name(device)` unless the device is the fake, which answers `fake_answer`. */
#define ANSWER(ret, name, fake_answer)                                      \
    typedef ret (*name##_fn)(struct udev_device *);                         \
    ret name(struct udev_device *device) {                                  \
        if (is_fake(device)) return fake_answer;                            \
        REAL(name##_fn, name);                                              \
        return real_##name ? real_##name(device) : (ret)0;                  \
    }

struct udev_device *udev_device_ref(struct udev_device *device);
struct udev_device *udev_device_unref(struct udev_device *device);

typedef struct udev_device *(*ref_fn)(struct udev_device *);
struct udev_device *udev_device_ref(struct udev_device *device) {
    if (is_fake(device)) { fake.refcount++; return device; }
    REAL(ref_fn, udev_device_ref);
    return real_udev_device_ref ? real_udev_device_ref(device) : NULL;
}

struct udev_device *udev_device_unref(struct udev_device *device) {
    if (is_fake(device)) { if (fake.refcount > 0) fake.refcount--; return NULL; }
    REAL(ref_fn, udev_device_unref);
    return real_udev_device_unref ? real_udev_device_unref(device) : NULL;
}

ANSWER(int, udev_device_get_is_initialized, 1)
ANSWER(struct udev *, udev_device_get_udev, fake.udev)
ANSWER(const char *, udev_device_get_devnode, fake.devnode)
ANSWER(const char *, udev_device_get_sysname, fake.sysname)
ANSWER(const char *, udev_device_get_syspath, fake.syspath)
ANSWER(const char *, udev_device_get_devpath, fake.syspath + 4)   /* without "/sys" */
ANSWER(const char *, udev_device_get_subsystem, "input")
ANSWER(const char *, udev_device_get_devtype, NULL)
ANSWER(const char *, udev_device_get_sysnum, fake.sysname + strcspn(fake.sysname, "0123456789"))
ANSWER(const char *, udev_device_get_driver, NULL)
ANSWER(const char *, udev_device_get_action, NULL)
ANSWER(dev_t, udev_device_get_devnum, fake.devnum)
ANSWER(struct udev_device *, udev_device_get_parent, NULL)
ANSWER(struct udev_list_entry *, udev_device_get_properties_list_entry, NULL)
ANSWER(struct udev_list_entry *, udev_device_get_tags_list_entry, NULL)
ANSWER(struct udev_list_entry *, udev_device_get_devlinks_list_entry, NULL)
ANSWER(struct udev_list_entry *, udev_device_get_sysattr_list_entry, NULL)
ANSWER(unsigned long long, udev_device_get_seqnum, 0)
ANSWER(unsigned long long, udev_device_get_usec_since_initialized, 1000000)

typedef struct udev_device *(*parent_with_fn)(struct udev_device *, const char *, const char *);
struct udev_device *udev_device_get_parent_with_subsystem_devtype(struct udev_device *device, const char *subsystem,
                                                                  const char *devtype) {
    if (is_fake(device)) return NULL;
    REAL(parent_with_fn, udev_device_get_parent_with_subsystem_devtype);
    return real_udev_device_get_parent_with_subsystem_devtype
        ? real_udev_device_get_parent_with_subsystem_devtype(device, subsystem, devtype) : NULL;
}

typedef const char *(*string_of_fn)(struct udev_device *, const char *);
const char *udev_device_get_property_value(struct udev_device *device, const char *key) {
    if (is_fake(device)) {
        if (!key) return NULL;
        if (strcmp(key, "ID_INPUT") == 0) return "1";
        if (strcmp(key, fake.touchscreen ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD") == 0) return "1";
        if (strcmp(key, "DEVNAME") == 0) return fake.devnode;
        if (strcmp(key, "SUBSYSTEM") == 0) return "input";
        return NULL;
    }
    REAL(string_of_fn, udev_device_get_property_value);
    return real_udev_device_get_property_value ? real_udev_device_get_property_value(device, key) : NULL;
}

const char *udev_device_get_sysattr_value(struct udev_device *device, const char *name) {
    if (is_fake(device)) return NULL;
    REAL(string_of_fn, udev_device_get_sysattr_value);
    return real_udev_device_get_sysattr_value ? real_udev_device_get_sysattr_value(device, name) : NULL;
}

typedef int (*has_tag_fn)(struct udev_device *, const char *);
int udev_device_has_tag(struct udev_device *device, const char *tag) {
    if (is_fake(device)) return 0;
    REAL(has_tag_fn, udev_device_has_tag);
    return real_udev_device_has_tag ? real_udev_device_has_tag(device, tag) : 0;
}
