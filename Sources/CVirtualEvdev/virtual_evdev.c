#include "virtual_evdev.h"
