/* src/render/escape.c - placeholder until its module lands. */
#include "config.h"
typedef int pr_placeholder_escape;
