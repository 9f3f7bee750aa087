/* job_api.c: a request answered by a job of the writer thread, the one
 * pattern of the routes that read or write rows (follow_api.c,
 * tutorial_api.c, rematch.c, challenge_api.c, moderation_api.c,
 * mail_api.c): the job submitted with the request's handle (a srv_pwjob the
 * connection keeps, so a request that goes away is not answered), and the
 * body of its outcome; and the "ID/VERB" after a route's prefix. Declared
 * in api/api_impl.h. The loop never waits on
 * the database (docs/storage.md).
 */
#include <stdlib.h>
#include <string.h>

#include "api/api_impl.h"

int srv_api_job_submit(struct lws *wsi, srv_pwjob **handle, srv_dbjob_fn run,
                       srv_dbjob_done done, void *job, void (*free_job)(void *))
{
    srv_pwjob *j = calloc(1, sizeof *j);
    if (!j) {
        free_job(job);
        return srv_http_error(wsi, 500, "out of memory");
    }
    j->wsi = wsi;
    *handle = j;
    srv_pss *pss = lws_wsi_user(wsi);
    pss->pwjob = j;
    if (srv_dbjob_submit(run, done, job) != 0) {
        pss->pwjob = NULL;
        free_job(job); /* and j with it */
        return srv_http_error(wsi, 503, "the server is busy: try again");
    }
    return 0;
}

json_t *srv_api_job_body(int status, const char *why, json_t **body)
{
    if (status >= 400)
        return json_pack("{s:s}", "error", why ? why : status == 500
                         ? "the database could not do it: try again later" : "");
    json_t *b = *body;
    *body = NULL;
    return b;
}

int srv_api_path_id(const char *p, char id[SRV_ID_HEX + 1], const char **verb)
{
    const char *slash = strchr(p, '/');
    size_t l = slash ? (size_t)(slash - p) : strlen(p);
    *verb = slash ? slash + 1 : "";
    if (l == 0 || l > SRV_ID_HEX)
        return -1;
    memcpy(id, p, l);
    id[l] = 0;
    return 0;
}
