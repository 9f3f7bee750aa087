/* api/api_impl.h: helpers shared by the api layer's own files, not part of
 * its API (serve.c and the layers below never include it; tests/layers.py
 * refuses it outside api/). Today: a request answered by a job of the
 * writer thread (job_api.c), the pattern of the routes that read or write
 * rows (follow, tutorial, rematch, challenge, moderation, mail), and the
 * "ID/VERB" of their paths.
 */
#ifndef CHARTERED_SERVER_API_IMPL_H
#define CHARTERED_SERVER_API_IMPL_H

#include "api/api.h"

/* Run job on the writer thread for the request wsi: run(db, job) there,
 * done(job) on the loop (done answers with srv_auth_answer_later(*handle,
 * ...) and frees the job). *handle gets the request's srv_pwjob, which the
 * connection keeps (a request that goes away clears its wsi) and free_job
 * frees with the job. 0: under way; else the request was answered here
 * (500 out of memory, 503 the writer's queue is full: srv_http_error's
 * value, the callback's) and the job freed with free_job. */
int srv_api_job_submit(struct lws *wsi, srv_pwjob **handle, srv_dbjob_fn run,
                       srv_dbjob_done done, void *job, void (*free_job)(void *));

/* The body of a job's outcome: {"error": why} when status >= 400 (a 500
 * without a why says the database could not do it), else *body, taken
 * (*body becomes NULL). */
json_t *srv_api_job_body(int status, const char *why, json_t **body);

/* The path after a route's prefix, "ID" or "ID/VERB": the id (1 to
 * SRV_ID_HEX characters) into id, *verb the text after the slash ("" when
 * none). 0, or -1 when there is no id or it is too long (answer 404). */
int srv_api_path_id(const char *p, char id[SRV_ID_HEX + 1], const char **verb);

#endif
