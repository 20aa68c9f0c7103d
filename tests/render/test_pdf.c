/* test_pdf.c - the PDF report (render/pdf.c, render/pdf_canvas.c): renders
 * the sample summary and hostile ones to temporary files and checks the
 * bytes: a PDF, a sane page count, identical across runs, errors without
 * leftovers.  The visual check is tests/cli/pdf_report.sh (qpdf, pdffonts). */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* cmocka 1.1.5 needs these three first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <cjson/cJSON.h>

#include "profreport/figures.h"
#include "profreport/pdf_canvas.h"
#include "profreport/pdf_doc.h"
#include "profreport/render.h"

#define GENERATED_AT 1700000000 /* 2023-11-14T22:13:20Z */

struct fixture {
    char dir[64];  /* private temp folder, removed in teardown */
    cJSON *sample; /* tests/data/summary_sample.json, or NULL */
};

/* ---- helpers ---------------------------------------------------------- */

static char *
read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long n = -1;

    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0)
        data = malloc((size_t)n + 1);
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    if (data != NULL) {
        data[n] = '\0';
        *len = (size_t)n;
    }
    fclose(f);
    return data;
}

static cJSON *
load_sample(void)
{
    const char *src = getenv("PR_SRCDIR");
    char path[4096];
    size_t len = 0;
    char *text;
    cJSON *s;

    snprintf(path, sizeof(path), "%s/tests/data/summary_sample.json",
             src ? src : ".");
    text = read_file(path, &len);
    if (text == NULL)
        return NULL;
    s = cJSON_ParseWithLength(text, len);
    free(text);
    return s;
}

static struct pr_render_opts
default_opts(void)
{
    struct pr_render_opts o;

    memset(&o, 0, sizeof(o));
    o.top = 50;
    o.generated_at = GENERATED_AT;
    o.version = "0.1.0";
    return o;
}

static void
path_in(const struct fixture *fx, const char *name, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", fx->dir, name);
}

/* Pages counted from the uncompressed page dictionaries. */
static size_t
count_pages(const char *pdf, size_t len)
{
    static const char key[] = "/Type /Page";
    size_t n = 0, i;

    for (i = 0; i + sizeof(key) < len; i++)
        if (memcmp(pdf + i, key, sizeof(key) - 1) == 0 &&
            pdf[i + sizeof(key) - 1] != 's')
            n++;
    return n;
}

/* strstr over binary bytes (a PDF holds NULs in its streams). */
static int
has(const char *pdf, size_t len, const char *needle)
{
    return memmem(pdf, len, needle, strlen(needle)) != NULL;
}

static size_t
count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static void
render_ok(const cJSON *s, const struct pr_render_opts *o, const char *path)
{
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_pdf_render(s, o, path, &err) != PR_OK)
        fail_msg("pr_pdf_render: %s", err.msg);
}

/* Render and check the file is a complete PDF; returns its bytes. */
static char *
render_check(const cJSON *s, const struct pr_render_opts *o, const char *path,
             size_t *len)
{
    char *pdf;

    render_ok(s, o, path);
    pdf = read_file(path, len);
    assert_non_null(pdf);
    assert_true(*len > 1000);
    assert_memory_equal(pdf, "%PDF-1.", 7);
    assert_true(has(pdf + *len - 8, 8, "%%EOF"));
    return pdf;
}

/* ---- fixture ---------------------------------------------------------- */

static int
setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    const char *tmp = getenv("TMPDIR");

    if (fx == NULL)
        return -1;
    snprintf(fx->dir, sizeof(fx->dir), "%s/prpdf.XXXXXX",
             tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (mkdtemp(fx->dir) == NULL) {
        free(fx);
        return -1;
    }
    fx->sample = load_sample();
    *state = fx;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *fx = *state;
    DIR *d = opendir(fx->dir);
    struct dirent *e;
    char path[512];

    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        path_in(fx, e->d_name, path, sizeof(path));
        if (unlink(path) != 0)
            (void)rmdir(path);
    }
    if (d != NULL)
        closedir(d);
    (void)rmdir(fx->dir);
    cJSON_Delete(fx->sample);
    free(fx);
    return 0;
}

#define NEED_SAMPLE(fx)                                                        \
    do {                                                                       \
        if ((fx)->sample == NULL) {                                            \
            print_message("# tests/data/summary_sample.json not found\n");     \
            skip();                                                            \
        }                                                                      \
    } while (0)

/* ---- tests ------------------------------------------------------------ */

static void
test_sample_renders(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    char path[512];
    size_t len = 0, pages;
    char *pdf;

    NEED_SAMPLE(fx);
    path_in(fx, "report.pdf", path, sizeof(path));
    pdf = render_check(fx->sample, &o, path, &len);
    pages = count_pages(pdf, len);
    assert_in_range(pages, 6, 40);
    /* A4, compressed streams, no encryption (no random /ID) */
    assert_true(has(pdf, len, "/MediaBox [ 0 0 595.276 841.89"));
    assert_true(has(pdf, len, "/FlateDecode"));
    assert_false(has(pdf, len, "/Encrypt"));
    assert_true(has(pdf, len, "/CreationDate (D:20231114221320Z"));
    assert_true(has(pdf, len, "/Outlines"));
    assert_int_equal(count_entries(fx->dir), 1); /* no temp file left */
    free(pdf);
}

/* A bookmark's title as libharu writes it: UTF-16BE in hex ("<FEFF...>");
 * ASCII titles only. */
static void
outline_title(const char *title, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "<FEFF");

    for (; *title != '\0' && used + 5 < n; title++)
        used += (size_t)snprintf(buf + used, n - used, "00%02X",
                                 (unsigned char)*title);
    snprintf(buf + used, n - used, ">");
}

/* As test_html.c's: the section table is the one list the PDF follows:
 * a bookmark per section of it that the summary has, in the table's
 * order, none for the others. */
static void
test_sections_follow_the_table(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    char path[512], title[400];
    size_t len = 0, i, from = 0, shown = 0;
    const char *at;
    char *pdf;

    NEED_SAMPLE(fx);
    path_in(fx, "sections.pdf", path, sizeof(path));
    pdf = render_check(fx->sample, &o, path, &len);
    for (i = 0; i < pr_report_n_sections; i++) {
        const struct pr_section *s = pr_report_sections[i];
        outline_title(s->title, title, sizeof(title));
        if (!pr_section_present(s, fx->sample)) {
            assert_false(has(pdf, len, title));
            continue;
        }
        at = memmem(pdf + from, len - from, title, strlen(title));
        if (at == NULL)
            fail_msg("section %s: no bookmark after the one before it", s->id);
        from = (size_t)(at - pdf) + 1;
        shown++;
    }
    assert_true(shown >= 8);
    free(pdf);
}

static void
test_deterministic(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    char p1[512], p2[512], p3[512];
    size_t n1 = 0, n2 = 0, n3 = 0;
    char *a, *b, *c;

    NEED_SAMPLE(fx);
    path_in(fx, "a.pdf", p1, sizeof(p1));
    path_in(fx, "b.pdf", p2, sizeof(p2));
    path_in(fx, "c.pdf", p3, sizeof(p3));
    a = render_check(fx->sample, &o, p1, &n1);
    b = render_check(fx->sample, &o, p2, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    o.generated_at = GENERATED_AT + 86400;
    c = render_check(fx->sample, &o, p3, &n3);
    assert_true(n1 != n3 || memcmp(a, c, n1) != 0);
    free(a);
    free(b);
    free(c);
}

static void
test_letter_and_top(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    char path[512];
    size_t len = 0, a4_pages, pages;
    char *pdf;

    NEED_SAMPLE(fx);
    path_in(fx, "letter.pdf", path, sizeof(path));
    o.paper = "letter";
    pdf = render_check(fx->sample, &o, path, &len);
    assert_true(has(pdf, len, "/MediaBox [ 0 0 612 792 ]"));
    a4_pages = count_pages(pdf, len);
    free(pdf);
    o.top = 1; /* one row per table: never more pages */
    pdf = render_check(fx->sample, &o, path, &len);
    pages = count_pages(pdf, len);
    assert_true(pages >= 6 && pages <= a4_pages);
    free(pdf);
}

/* A one-run summary whose names are long, invalid UTF-8, format strings,
 * markup and control characters. */
static cJSON *
hostile_summary(void)
{
    static const char *const names[] = {
        "bad \xff\xfe utf-8 \xc0\xaf overlong",
        "surrogate \xed\xa0\x80 and emoji \xf0\x9f\x98\x80",
        "truncated \xe2\x82",
        "format %s%n%x%%",
        "<script>alert(1)</script> & \"quotes\"",
        "tab\tnew\nline\x01\x7f",
        "",
    };
    cJSON *s = cJSON_CreateObject();
    cJSON *runs = cJSON_AddArrayToObject(s, "runs");
    cJSON *run = cJSON_CreateObject();
    cJSON *ops = cJSON_AddArrayToObject(run, "operators");
    cJSON *kernels = cJSON_AddArrayToObject(run, "kernels");
    char *long_name = malloc(5001);
    size_t i;

    assert_non_null(long_name);
    for (i = 0; i < 5000; i++)
        long_name[i] = (char)('a' + i % 26);
    long_name[5000] = '\0';
    cJSON_AddItemToArray(runs, run);
    cJSON_AddStringToObject(run, "worker", "w\xff\xfe");
    for (i = 0; i <= sizeof(names) / sizeof(*names); i++) {
        const char *name =
            i < sizeof(names) / sizeof(*names) ? names[i] : long_name;
        cJSON *op = cJSON_CreateObject();
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(op, "name", name);
        cJSON_AddNumberToObject(op, "device_self_us", 1000.0 - (double)i);
        cJSON_AddNumberToObject(op, "arithmetic_intensity", 2.0 + (double)i);
        cJSON_AddNumberToObject(op, "achieved_tflops", 0.5);
        cJSON_AddNumberToObject(op, "flops", 1e9);
        cJSON_AddItemToArray(ops, op);
        cJSON_AddStringToObject(k, "name", name);
        cJSON_AddStringToObject(k, "operator", name);
        cJSON_AddNumberToObject(k, "total_us", 100.0 - (double)i);
        cJSON_AddItemToArray(kernels, k);
    }
    cJSON_AddNullToObject(s, "distributed");
    free(long_name);
    return s;
}

static void
test_hostile_names(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    cJSON *s = hostile_summary();
    char path[512];
    size_t len = 0;
    char *pdf;

    path_in(fx, "hostile.pdf", path, sizeof(path));
    pdf = render_check(s, &o, path, &len);
    assert_in_range(count_pages(pdf, len), 2, 40);
    free(pdf);
    cJSON_Delete(s);
}

/* Wrong types and nulls everywhere: every section says it has no data. */
static void
test_null_and_mistyped(void **state)
{
    static const char *const docs[] = {
        "{}",
        "{\"runs\": null, \"inputs\": 3, \"distributed\": null}",
        "{\"runs\": [{\"worker\": 1, \"steps\": null, \"step_summary\": null,"
        " \"gpu_metrics\": null, \"operators\": null, \"kernels\": null,"
        " \"tensor_cores\": null, \"memory\": null, \"recommendations\": null,"
        " \"devices\": null}], \"distributed\": null}",
        "{\"runs\": [{\"steps\": [1, \"x\", {\"breakdown_us\": 5}],"
        " \"step_summary\": [], \"operators\": [1, 2], \"kernels\": {},"
        " \"memory\": {\"devices\": [{\"curve\": {\"t_us\": [1, 2],"
        " \"allocated_bytes\": [\"a\", null]}}]}, \"tensor_cores\": "
        "{\"findings\": \"no\"}}], \"distributed\": {\"workers\": [{}]}}",
        "{\"runs\": [{\"memory\": {\"devices\": [{\"curve\": {\"t_us\": "
        "[0, 1e308, -1e308], \"allocated_bytes\": [1e300, 0, -5]}}]}}]}",
    };
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    char path[512];
    size_t i, len = 0;

    path_in(fx, "null.pdf", path, sizeof(path));
    for (i = 0; i < sizeof(docs) / sizeof(*docs); i++) {
        cJSON *s = cJSON_Parse(docs[i]);
        char *pdf;
        assert_non_null(s);
        pdf = render_check(s, &o, path, &len);
        assert_in_range(count_pages(pdf, len), 1, 20);
        free(pdf);
        cJSON_Delete(s);
    }
}

static void
test_not_an_object(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    struct pr_error err;
    cJSON *s = cJSON_CreateArray();
    char path[512];

    path_in(fx, "array.pdf", path, sizeof(path));
    pr_error_clear(&err);
    assert_int_equal(pr_pdf_render(s, &o, path, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "summary"));
    assert_int_equal(count_entries(fx->dir), 0);
    cJSON_Delete(s);
}

static void
test_unwritable_path(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    struct pr_error err;
    cJSON *s = hostile_summary();
    char file[512], path[600];
    FILE *f;

    /* a path under a regular file: fails even for root */
    path_in(fx, "plain", file, sizeof(file));
    f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof(path), "%s/report.pdf", file);
    pr_error_clear(&err);
    assert_int_equal(pr_pdf_render(s, &o, path, &err), PR_E_IO);
    assert_non_null(strstr(err.msg, "report.pdf"));
    /* the destination is a folder: rename fails, the temp file goes */
    path_in(fx, "folder.pdf", path, sizeof(path));
    assert_int_equal(mkdir(path, 0755), 0);
    pr_error_clear(&err);
    assert_int_equal(pr_pdf_render(s, &o, path, &err), PR_E_IO);
    assert_non_null(strstr(err.msg, "folder.pdf"));
    assert_int_equal(count_entries(fx->dir), 2); /* plain, folder.pdf */
    cJSON_Delete(s);
}

static void
test_bad_font(void **state)
{
    struct fixture *fx = *state;
    struct pr_render_opts o = default_opts();
    struct pr_error err;
    cJSON *s = hostile_summary();
    char path[512], junk[512];
    FILE *f;

    path_in(fx, "font.pdf", path, sizeof(path));
    o.font = "/nonexistent/font.ttf";
    pr_error_clear(&err);
    assert_int_equal(pr_pdf_render(s, &o, path, &err), PR_E_IO);
    assert_non_null(strstr(err.msg, "font.ttf"));
    /* a file that is not a TrueType font */
    path_in(fx, "junk.ttf", junk, sizeof(junk));
    f = fopen(junk, "w");
    assert_non_null(f);
    fputs("this is not a font, just text long enough to be read\n", f);
    fclose(f);
    o.font = junk;
    pr_error_clear(&err);
    assert_int_not_equal(pr_pdf_render(s, &o, path, &err), PR_OK);
    assert_non_null(strstr(err.msg, "junk.ttf"));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(count_entries(fx->dir), 1); /* junk.ttf only */
    cJSON_Delete(s);
}

static void
check_clean(const char *in, const char *want)
{
    char *got = pr_pdf_text_clean(in);

    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void
test_text_clean(void **state)
{
    (void)state;
    check_clean(NULL, "");
    check_clean("aten::mm", "aten::mm");
    check_clean("caf\xc3\xa9 \xe2\x88\x91", "caf\xc3\xa9 \xe2\x88\x91");
    check_clean("a\xff"
                "b",
                "a?b");
    check_clean("\xc0\xaf", "?");           /* overlong '/' */
    check_clean("\xed\xa0\x80", "?");       /* UTF-16 surrogate */
    check_clean("\xf0\x9f\x98\x80!", "?!"); /* outside the BMP */
    check_clean("end \xe2\x82", "end ?");   /* truncated sequence */
    check_clean("a\tb\nc\rd", "a b c d");
    check_clean("\x01\x7f\xc2\x85", "???"); /* C0, DEL, C1 controls */
}

/* One unit a character: the breaker's choices on strings, widths aside. */
static double
one_each(void *ctx, const char *ch)
{
    (void)ctx;
    (void)ch;
    return 1.0;
}

/* The lines that pr_pdf_fit makes of s in width w, "|" between them (the
 * spaces at a break dropped, as pr_pdf_doc_wrapped does). */
static void
check_lines(const char *s, double w, const char *want)
{
    char got[256];
    size_t at = 0;

    while (*s != '\0' && at + 2 < sizeof(got)) {
        size_t n = pr_pdf_fit(s, w, one_each, NULL), k = n;
        while (k > 0 && s[k - 1] == ' ')
            k--;
        if (at > 0)
            got[at++] = '|';
        if (k > sizeof(got) - at - 2)
            k = sizeof(got) - at - 2;
        memcpy(got + at, s, k);
        at += k;
        s += n;
        while (*s == ' ')
            s++;
    }
    got[at] = '\0';
    assert_string_equal(got, want);
}

/* Review 18 #8: an opening bracket stays with the word after it, a closing
 * one with the word before it (UAX #14's OP and CL), and a number with its
 * unit.  fix12 broke after "(" ("what the change can save (" / "a
 * replay", npu_text1's "22.0 ms (" / "the bound's parts"). */
static void
test_breaks(void **state)
{
    (void)state;
    check_lines("what the change can save (a replay", 27,
                "what the change can save|(a replay");
    check_lines("hcom_allReduce__586_3_1 22.0 ms (the bound's parts", 36,
                "hcom_allReduce__586_3_1 22.0 ms|(the bound's parts");
    check_lines("hcom_allReduce__586_3_1 22.0 ms (the bound's parts", 30,
                "hcom_allReduce__586_3_1|22.0 ms (the bound's parts");
    check_lines("save ( the bound", 8, "save|( the|bound");
    check_lines("a long run [of words] here", 12, "a long run|[of words]|here");
    check_lines("xxxxxxxxxx(yyyyyyyy", 11, "xxxxxxxxxx|(yyyyyyyy");
    check_lines("f(a, b) and g(c)", 6, "f(a,|b)|and|g(c)");
    check_lines("torch.autocast(device_type)", 18,
                "torch.|autocast(device_|type)");
    check_lines("aaaa bbbbbbb) c", 12, "aaaa|bbbbbbb) c");
    check_lines("took 1,234,567 calls", 12, "took|1,234,567|calls");

    assert_false(pr_pdf_break_ok("a (b", 3));  /* after "(" */
    assert_false(pr_pdf_break_ok("a ( b", 4)); /* after "( " */
    assert_true(pr_pdf_break_ok("a (b", 2));   /* before "(" */
    assert_false(pr_pdf_break_ok("a b)", 3));  /* before ")" */
    assert_false(pr_pdf_break_ok("a [b]", 3));
    assert_false(pr_pdf_break_ok("a [b]", 4));
    assert_false(pr_pdf_break_ok("x {y}", 3));
    assert_false(pr_pdf_break_ok("x.", 1));
    assert_false(pr_pdf_break_ok("x, y", 1));
    assert_false(pr_pdf_break_ok("x; y", 1));
    assert_false(pr_pdf_break_ok("x: y", 1));
    assert_false(pr_pdf_break_ok("x! y", 1));
    assert_false(pr_pdf_break_ok("a \"b\" c", 3)); /* after an opening " */
    assert_false(pr_pdf_break_ok("a \"b\" c", 4)); /* before a closing " */
    assert_true(pr_pdf_break_ok("a \"b\" c", 2));
    assert_true(pr_pdf_break_ok("a \"b\" c", 5));
    assert_false(pr_pdf_break_ok("a \xE2\x80\x9C"
                                 "b",
                                 5)); /* after a left curly quote */
    assert_false(pr_pdf_break_ok("b\xE2\x80\x9D", 1)); /* before a right one */
    assert_false(pr_pdf_break_ok("a", 0));
    assert_false(pr_pdf_break_ok("a", 1));
}

/* Issue #30: a command-line switch is one word: no line ends after its
 * leading "-" or "--" (msprof_cann6's PDF had "--" / "aic-metrics" and
 * "msprof --" / "export=on"); a hyphen inside a word and a dash between
 * spaces still break. */
static void
test_switch_breaks(void **state)
{
    (void)state;
    check_lines("metrics with --aic-metrics x", 16,
                "metrics with|--aic-metrics x");
    check_lines("msprof --export=on", 10, "msprof|--export=|on");
    check_lines("run (-v) now", 6, "run|(-v)|now");
    assert_false(pr_pdf_break_ok("a --b", 3)); /* between the dashes */
    assert_false(pr_pdf_break_ok("a --b", 4)); /* after them */
    assert_false(pr_pdf_break_ok("-b", 1));
    assert_false(pr_pdf_break_ok("(--b)", 3));
    assert_true(pr_pdf_break_ok("a --b", 2));       /* before them */
    assert_true(pr_pdf_break_ok("aic-metrics", 4)); /* inside a word */
    assert_true(pr_pdf_break_ok("a - b", 3));       /* a dash alone */
}

/* Issue #30 #5: a name with '_' that fits in a line moves down whole
 * rather than break at its '_' (msprof_tv's PDF read "set num_" /
 * "workers"); one wider than the line still breaks there. */
static void
test_name_breaks(void **state)
{
    (void)state;
    check_lines("You could try to set num_workers on", 24,
                "You could try to set|num_workers on");
    check_lines("see step_trace_time.csv here", 20,
                "see|step_trace_time.csv|here");
    /* a qualified name is one name: wider than the line, it breaks */
    check_lines("aten::cudnn_convolution", 18, "aten::cudnn_|convolution");
    check_lines("run aten::cudnn_convolution", 24,
                "run|aten::cudnn_convolution");
    check_lines("aaaaaaaaaa_bbbbbbbbbb", 12, "aaaaaaaaaa_|bbbbbbbbbb");
    check_lines("counts (*_cube_fops, *_vector_fops) are", 24,
                "counts (*_cube_fops,|*_vector_fops) are");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sample_renders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sections_follow_the_table, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_deterministic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_letter_and_top, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_and_mistyped, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_not_an_object, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unwritable_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_font, setup, teardown),
        cmocka_unit_test(test_text_clean),
        cmocka_unit_test(test_breaks),
        cmocka_unit_test(test_switch_breaks),
        cmocka_unit_test(test_name_breaks),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
