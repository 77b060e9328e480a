/* make bench's second transport anchor (scripts/callgrind-curve.py): libmicrohttpd answering every
 * request the way Segue must answer a curve, and doing nothing else. Like ../shared/bench's bare
 * server it reads and drops the body and sends fixed bytes, in a thread pool of two over epoll with
 * a 32 KiB connection pool; unlike it, each answer carries the six headers Segue's contract puts on
 * a curve (docs/http.md "Instructions per request"): Content-Type, Vary, the two CORS headers, the
 * entity tag and the request id, each added with MHD_add_response_header, which libmicrohttpd
 * 0.9.75 copies into three allocations. The body is as long as Segue's answer to the benchmark
 * request, handed over without a copy as Segue hands its own.
 *
 * Build: gcc -O2 -o mhd-six-headers mhd-six-headers.c $(pkg-config --cflags --libs libmicrohttpd)
 * Run:   ./mhd-six-headers PORT        (SIGTERM or SIGINT stops it)
 */
#include <microhttpd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BODY_BYTES = 3289 };

static char body[BODY_BYTES];
static int begun; /* its address marks a request whose headers were seen */

static const char *const headers[][2] = {
  { "Access-Control-Allow-Origin", "*" },
  { "Access-Control-Expose-Headers", "ETag" },
  { "Content-Type", "application/json" },
  { "Vary", "Accept, Accept-Encoding" },
  { "ETag", "\"f175001258a073a2\"" },
  { "X-Request-Id", "2bebedcadb758ed0" },
};

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **request) {
  (void)cls; (void)url; (void)method; (void)version; (void)upload;
  if (*request == NULL) {          /* the headers: nothing to do yet */
    *request = &begun;
    return MHD_YES;
  }
  if (*upload_size > 0) {          /* a piece of the body: dropped */
    *upload_size = 0;
    return MHD_YES;
  }
  struct MHD_Response *response = MHD_create_response_from_buffer(BODY_BYTES, body, MHD_RESPMEM_PERSISTENT);
  if (response == NULL) return MHD_NO;
  for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
    MHD_add_response_header(response, headers[i][0], headers[i][1]);
  enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
  MHD_destroy_response(response);
  return queued;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  memset(body, ' ', sizeof body);
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, NULL); /* the pool's threads inherit the mask */
  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_ERROR_LOG | MHD_USE_ITC | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL,
      (uint16_t)atoi(argv[1]), NULL, NULL, answer, NULL,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned)2,
      MHD_OPTION_END);
  if (daemon == NULL) return 1;
  int signal_number;
  sigwait(&stop, &signal_number);
  MHD_stop_daemon(daemon);
  return 0;
}
