/* fuzz_failon.c - libFuzzer target for the --fail-on grammar: the input
 * is one --fail-on value (a comma-separated list of rules), parsed, and
 * each rule asked whether a few changes cross it. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "profreport/diff_rules.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const double deltas[] = {-1e300, -1, 0, 0.5, 1e300};
    struct pr_rule *rules = NULL;
    struct pr_error err;
    size_t n = 0, i, k;
    char *text = malloc(size + 1);

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    pr_error_clear(&err);
    if (pr_rule_list_add(&rules, &n, text, &err) == PR_OK) {
        for (i = 0; i < n; i++) {
            for (k = 0; k < sizeof(deltas) / sizeof(deltas[0]); k++)
                (void)pr_rule_crossed(&rules[i], deltas[k]);
            (void)pr_rule_crossed(&rules[i], NAN);
        }
    }
    pr_rule_list_free(rules, n);
    free(text);
    return 0;
}
