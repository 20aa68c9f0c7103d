/* src/core/fmt.c - placeholder until its module lands. */
#include "config.h"
typedef int pr_placeholder_fmt;
