/* args.c - the options of the report and table commands: one getopt_long
 * table shared by both (their usage texts are in cmd_report.c and
 * cmd_table.c, beside the command entries). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profreport/args.h"
#include "profreport/detail.h"
#include "profreport/escape.h"
#include "profreport/near.h"
#include "profreport/parse.h"
#include "profreport/sink.h"

enum {
    OPT_HTML = 256,
    OPT_PDF,
    OPT_TOP,
    OPT_TEMPLATE_DIR,
    OPT_PAPER,
    OPT_FONT,
    OPT_PEAK_TFLOPS,
    OPT_PEAK_GBPS,
    OPT_THREADS,
    OPT_JOBS,
    OPT_DETAIL_RANKS,
    OPT_MAX_INPUT,
    OPT_KIND,
    OPT_SORT,
    OPT_GROUP_BY,
    OPT_MIN_TIME,
    OPT_FILTER,
    OPT_CSV,
    OPT_JSON_OUT,
    OPT_DEVICE_SPEC,
    OPT_SOURCE_LINK,
    OPT_KERNEL_RULES,
    OPT_FOLLOW_LINKS,
    OPT_WHY,
    OPT_JOB,
    OPT_EACH_JOB,
    OPT_PROGRESS
};

static const struct option longopts[] = {
    {"input", required_argument, NULL, 'i'},
    {"json", required_argument, NULL, 'j'},
    {"html", required_argument, NULL, OPT_HTML},
    {"pdf", required_argument, NULL, OPT_PDF},
    {"top", required_argument, NULL, OPT_TOP},
    {"template-dir", required_argument, NULL, OPT_TEMPLATE_DIR},
    {"source-link", required_argument, NULL, OPT_SOURCE_LINK},
    {"paper", required_argument, NULL, OPT_PAPER},
    {"font", required_argument, NULL, OPT_FONT},
    {"peak-tflops", required_argument, NULL, OPT_PEAK_TFLOPS},
    {"peak-gbps", required_argument, NULL, OPT_PEAK_GBPS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"detail-ranks", required_argument, NULL, OPT_DETAIL_RANKS},
    {"max-input", required_argument, NULL, OPT_MAX_INPUT},
    {"follow-links", no_argument, NULL, OPT_FOLLOW_LINKS},
    {"device-spec", required_argument, NULL, OPT_DEVICE_SPEC},
    {"kernel-rules", required_argument, NULL, OPT_KERNEL_RULES},
    {"why", required_argument, NULL, OPT_WHY},
    {"kind", required_argument, NULL, OPT_KIND},
    {"sort", required_argument, NULL, OPT_SORT},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"min-time", required_argument, NULL, OPT_MIN_TIME},
    {"filter", required_argument, NULL, OPT_FILTER},
    {"job", required_argument, NULL, OPT_JOB},
    {"each-job", no_argument, NULL, OPT_EACH_JOB},
    {"csv", no_argument, NULL, OPT_CSV},
    {"json-out", no_argument, NULL, OPT_JSON_OUT},
    {"quiet", no_argument, NULL, 'q'},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static enum pr_status
parse_long(const char *opt, const char *s, long lo, long hi, long *out,
           struct pr_error *err)
{
    int64_t v;

    if (!pr_parse_int64(s, lo, hi, &v))
        return pr_error_set(err, PR_E_USAGE,
                            "%s: expected an integer in %ld..%ld, got '%s'",
                            opt, lo, hi, s);
    *out = (long)v;
    return PR_OK;
}

static enum pr_status
parse_double(const char *opt, const char *s, double *out, struct pr_error *err)
{
    if (!pr_parse_double(s, 0, 1e18, out))
        return pr_error_set(err, PR_E_USAGE,
                            "%s: expected a non-negative number, got '%s'", opt,
                            s);
    return PR_OK;
}

enum pr_status
pr_args_push(const char ***v, size_t *n, const char *p, struct pr_error *err)
{
    const char **nv = realloc(*v, (*n + 1) * sizeof(**v));

    if (nv == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    nv[(*n)++] = p;
    *v = nv;
    return PR_OK;
}

/* An input path; "-" is standard input (a pipe is read as it streams,
 * its format told by its first bytes), once. */
static enum pr_status
add_input(struct pr_options *o, const char *path, struct pr_error *err)
{
    size_t i;

    if (strcmp(path, "-") == 0) {
        for (i = 0; i < o->n_inputs; i++)
            if (strcmp(o->inputs[i], "/dev/stdin") == 0)
                return pr_error_set(err, PR_E_USAGE,
                                    "standard input ('-') given twice");
        path = "/dev/stdin";
    }
    return pr_args_push(&o->inputs, &o->n_inputs, path, err);
}

static enum pr_status
handle(struct pr_options *o, int c, const char *arg, struct pr_error *err)
{
    long v;
    enum pr_status st = PR_OK;

    switch (c) {
    case 'i':
        return add_input(o, arg, err);
    case 'j':
        o->json_path = arg;
        break;
    case OPT_HTML:
        o->html_path = arg;
        break;
    case OPT_PDF:
        o->pdf_path = arg;
        break;
    case OPT_TOP:
        st = parse_long("--top", arg, 1, 1000000, &v, err);
        o->top = (int)v;
        o->top_given = 1;
        break;
    case OPT_TEMPLATE_DIR:
        o->template_dir = arg;
        break;
    case OPT_SOURCE_LINK:
        st = pr_source_link_check(arg, err);
        o->source_link = arg;
        break;
    case OPT_PAPER:
        if (strcmp(arg, "a4") != 0 && strcmp(arg, "letter") != 0)
            return pr_error_set(err, PR_E_USAGE,
                                "--paper: expected a4 or letter, got '%s'",
                                arg);
        o->paper = arg;
        break;
    case OPT_FONT:
        o->font = arg;
        break;
    case OPT_PEAK_TFLOPS:
        return parse_double("--peak-tflops", arg, &o->peak_tflops, err);
    case OPT_PEAK_GBPS:
        return parse_double("--peak-gbps", arg, &o->peak_gbps, err);
    case OPT_THREADS:
        st = parse_long("--threads", arg, 1, 256, &v, err);
        o->threads = (int)v;
        break;
    case OPT_DETAIL_RANKS:
        o->detail_ranks = arg;
        return pr_detail_check(arg, err);
    case OPT_JOBS:
        st = parse_long("--jobs", arg, 1, 256, &v, err);
        o->jobs = (int)v;
        break;
    case OPT_MAX_INPUT:
        /* a whole number of bytes; a unit may make a fraction whole */
        if (!pr_parse_bytes(arg, 1, UINT64_MAX, &o->max_input))
            return pr_error_set(err, PR_E_USAGE,
                                "--max-input: expected a whole number of "
                                "bytes >= 1, optionally with a unit (K, M, "
                                "G or KiB, MiB, GiB; KB, MB, GB), got '%s'",
                                arg);
        break;
    case OPT_FOLLOW_LINKS:
        o->follow_links = 1;
        break;
    case OPT_DEVICE_SPEC:
        o->device_spec = arg;
        break;
    case OPT_KERNEL_RULES:
        o->kernel_rules = arg;
        break;
    case OPT_WHY:
        if (o->command != PR_CMD_TABLE)
            return pr_error_set(err, PR_E_USAGE,
                                "--why is an option of profreport table");
        o->why = arg;
        break;
    case OPT_EACH_JOB:
        if (o->command != PR_CMD_REPORT)
            return pr_error_set(err, PR_E_USAGE,
                                "--each-job is an option of the reports "
                                "(profreport --input ... --html ...)");
        o->each_job = 1;
        break;
    case OPT_JOB:
        if (o->command != PR_CMD_TABLE)
            return pr_error_set(err, PR_E_USAGE,
                                "--job is an option of profreport table");
        o->job = arg;
        break;
    case OPT_KIND:
        o->table_kind = arg;
        break;
    case OPT_SORT:
        o->sort_col = arg;
        break;
    case OPT_GROUP_BY:
        o->group_by = arg;
        break;
    case OPT_MIN_TIME:
        if (!pr_parse_time_us(arg, 0, 1e18, &o->min_time_us))
            return pr_error_set(err, PR_E_USAGE,
                                "--min-time: expected a non-negative time, "
                                "a number with a unit (ns, us, ms, s; "
                                "bare: us), got '%s'",
                                arg);
        return PR_OK;
    case OPT_FILTER:
        o->filter = arg;
        break;
    case OPT_CSV:
        o->csv = 1;
        break;
    case OPT_JSON_OUT:
        o->json_out = 1;
        break;
    case 'c':
        o->columns = arg;
        break;
    case 'w':
        st = parse_long("-w", arg, 20, 100000, &v, err);
        o->width = (int)v;
        break;
    case 'q':
        o->quiet = 1;
        break;
    case OPT_PROGRESS:
        o->progress = 1;
        break;
    case 'v':
        o->verbose = 1;
        break;
    case 'h':
        o->want_help = 1;
        break;
    case 'V':
        o->want_version = 1;
        break;
    default:
        return pr_error_set(err, PR_E_USAGE, "unknown option");
    }
    return st;
}

/* Paths that are wrong before any work: two outputs to one place, an
 * output that is an input, an output that cannot be written (exit 2), and
 * a template folder that is not there (a silent fall-back to the built-in
 * templates would hide the typo). */
static enum pr_status
check_paths(const struct pr_options *o, struct pr_error *err)
{
    const char *paths[] = {o->json_path, o->html_path, o->pdf_path};
    const char *names[] = {"--json", "--html", "--pdf"};
    struct stat sb;

    if (o->template_dir != NULL &&
        (stat(o->template_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        return pr_error_set(err, PR_E_USAGE,
                            "--template-dir: '%s' is not a folder",
                            o->template_dir);
    return pr_outputs_check(paths, names, 3, o->inputs, o->n_inputs, err);
}

enum pr_status
pr_args_unknown(const char *cmd, const char *arg, const struct option *opts,
                struct pr_error *err)
{
    const char *names[128], *near = NULL;
    char typed[64];
    size_t i, n = 0, k;

    if (strncmp(arg, "--", 2) == 0) {
        k = strcspn(arg + 2, "=");
        if (k < sizeof(typed)) {
            memcpy(typed, arg + 2, k);
            typed[k] = '\0';
            for (i = 0; opts[i].name != NULL && n < 128; i++)
                names[n++] = opts[i].name;
            near = pr_nearest(typed, names, n, k / 3 + 2);
        }
    }
    if (near != NULL && strcmp(near, typed) == 0) /* getopt without ':' */
        return pr_error_set(err, PR_E_USAGE, "%s%soption '%s' needs a value",
                            cmd ? cmd : "", cmd ? ": " : "", arg);
    if (near != NULL)
        return pr_error_set(err, PR_E_USAGE,
                            "%s%sunknown option '%s'; did you mean '--%s'?",
                            cmd ? cmd : "", cmd ? ": " : "", arg, near);
    return pr_error_set(err, PR_E_USAGE, "%s%sunknown option '%s'",
                        cmd ? cmd : "", cmd ? ": " : "", arg);
}

enum pr_status
pr_args_parse(int argc, char **argv, enum pr_command cmd, struct pr_options *o,
              struct pr_error *err)
{
    int c;
    enum pr_status st;

    memset(o, 0, sizeof(*o));
    o->command = cmd;
    o->top = 50;
    o->paper = "a4";
    o->width = 0; /* the terminal's (pr_table_term_width) */
    optind = 0;   /* glibc: full re-initialisation, from argv[1] */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":i:j:qvhVc:w:", longopts, NULL)) !=
           -1) {
        if (c == '?')
            return pr_args_unknown(NULL, argv[optind - 1], longopts, err);
        if (c == ':')
            return pr_error_set(err, PR_E_USAGE, "option '%s' needs a value",
                                argv[optind - 1]);
        st = handle(o, c, optarg, err);
        if (st != PR_OK)
            return st;
    }
    for (; optind < argc; optind++) {
        st = add_input(o, argv[optind], err); /* bare paths are inputs */
        if (st != PR_OK)
            return st;
    }
    if (o->want_help || o->want_version)
        return PR_OK;
    /* the environment's rules when the command line names none */
    if (o->kernel_rules == NULL && getenv("PROFREPORT_KERNEL_RULES") != NULL &&
        getenv("PROFREPORT_KERNEL_RULES")[0] != '\0')
        o->kernel_rules = getenv("PROFREPORT_KERNEL_RULES");
    if (o->why != NULL) /* explains a name: no trace needed */
        return PR_OK;
    if (o->n_inputs == 0)
        return pr_error_set(err, PR_E_USAGE, "no input: give --input PATH");
    if (o->command == PR_CMD_TABLE && o->table_kind == NULL)
        return pr_error_set(
            err, PR_E_USAGE,
            "table: --kind is required "
            "(operators|kernels|kernel-calls|memory|steps|modules|"
            "layers|critical-path|findings)");
    if (o->each_job &&
        ((o->json_path != NULL && strcmp(o->json_path, "-") == 0) ||
         (o->html_path != NULL && strcmp(o->html_path, "-") == 0) ||
         (o->pdf_path != NULL && strcmp(o->pdf_path, "-") == 0)))
        return pr_error_set(err, PR_E_USAGE,
                            "--each-job writes a file per job: give file "
                            "names, not '-' (standard output)");
    return check_paths(o, err);
}

void
pr_args_free(struct pr_options *o)
{
    free(o->inputs);
    o->inputs = NULL;
    o->n_inputs = 0;
}

enum pr_status
pr_args_run(int argc, char **argv, enum pr_command cmd, struct pr_cmd_ctl *ctl,
            struct pr_error *err)
{
    struct pr_options o;
    enum pr_status st = pr_args_parse(argc, argv, cmd, &o, err);

    if (st == PR_OK && (o.want_help || o.want_version)) {
        ctl->want_help = o.want_help;
        ctl->want_version = o.want_version;
    } else if (st == PR_OK) {
        st = pr_pipeline_run(&o, err);
    }
    pr_args_free(&o);
    return st;
}
