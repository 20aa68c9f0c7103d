/* gen_trace.c - placeholder */
#include <stdio.h>
int
main(void)
{
    return 1;
}
