/* tmpl.c - placeholder */
#include "config.h"
#include "profreport/tmpl.h"
typedef int pr_placeholder_tmpl;
