#ifndef PINCHLAB_UDEV_PRELOAD_H
#define PINCHLAB_UDEV_PRELOAD_H

/* pinchlab's LD_PRELOAD library for Debian's unmodified `libinput debug-events --device NODE`
 * on a node served by `pinchlab serve` (a FUSE file with no udev device behind it).
 *
 * It answers libudev's udev_device_new_from_devnum for the node named by the environment
 * variable PINCHLAB_UDEV_DEVNODE with a device that is initialized, has the sysname in
 * PINCHLAB_UDEV_SYSNAME (default "event0"), a syspath under /sys/devices/virtual/input, the
 * properties ID_INPUT=1 and ID_INPUT_TOUCHPAD=1 (or ID_INPUT_TOUCHSCREEN=1 when
 * PINCHLAB_UDEV_CLASS=touchscreen), and no parent. Every call about any other device goes to
 * the real libudev (dlsym(RTLD_NEXT, ...)). Nothing here is called by pinchlab itself.
 *
 * With PINCHLAB_PARENT_PID set, the process ends (SIGTERM) when that parent ends, so a killed
 * pinchlab leaves no libinput behind. */

/* The version of the answers, so the CLI can check it loaded the library it built. */
const char *pinchlab_udev_preload_version(void);

#endif
