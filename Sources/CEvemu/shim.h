/* Debian's libevemu, used only by tests and benchmarks as the reference reader. */
#include <stdio.h>
#include <evemu.h>
