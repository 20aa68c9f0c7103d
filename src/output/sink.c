/* sink.c - atomic output: temp file in the same folder, fsync, rename. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profreport/sink.h"

static enum pr_status
make_temp(const char *path, char **tmp_out, int *fd_out, struct pr_error *err)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    int fd;

    if (tmp == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    snprintf(tmp, n, "%s.XXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return pr_error_set(err, PR_E_IO, "%s: cannot create: %s", path,
                            strerror(e));
    }
    /* mkstemp creates 0600; reports are ordinary files */
    (void)fchmod(fd, 0644 & ~(mode_t)0);
    *tmp_out = tmp;
    *fd_out = fd;
    return PR_OK;
}

static enum pr_status
write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return PR_E_IO;
        }
        p += w;
        len -= (size_t)w;
    }
    return PR_OK;
}

enum pr_status
pr_sink_write_file(const char *path, const void *data, size_t len,
                   struct pr_error *err)
{
    char *tmp = NULL;
    int fd, e;
    enum pr_status st;

    if (strcmp(path, "-") == 0) {
        if (write_all(STDOUT_FILENO, data, len) != PR_OK)
            return pr_error_set(err, PR_E_IO, "stdout: write failed: %s",
                                strerror(errno));
        return PR_OK;
    }
    st = make_temp(path, &tmp, &fd, err);
    if (st != PR_OK)
        return st;
    st = write_all(fd, data, len);
    e = errno;
    if (close(fd) != 0 && st == PR_OK) {
        st = PR_E_IO;
        e = errno;
    }
    if (st != PR_OK) {
        unlink(tmp);
        free(tmp);
        return pr_error_set(err, PR_E_IO, "%s: write failed: %s", path,
                            strerror(e));
    }
    st = pr_sink_commit(tmp, path, err);
    free(tmp);
    return st;
}

enum pr_status
pr_sink_temp_path(const char *path, char **tmp_out, struct pr_error *err)
{
    int fd;
    enum pr_status st = make_temp(path, tmp_out, &fd, err);

    if (st == PR_OK)
        close(fd);
    return st;
}

enum pr_status
pr_sink_commit(const char *tmp, const char *path, struct pr_error *err)
{
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return pr_error_set(err, PR_E_IO, "%s: cannot rename into place: %s",
                            path, strerror(e));
    }
    return PR_OK;
}

void
pr_sink_abort(const char *tmp)
{
    if (tmp != NULL)
        unlink(tmp);
}
