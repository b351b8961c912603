/* Debian's libyaml event (streaming) parser, used to read `libinput record` files. */
#include <yaml.h>
