/* Segue's only C: a header over Debian's libmicrohttpd (libmicrohttpd-dev).
 *
 * MHD_start_daemon and MHD_get_*_info are C-variadic, which Swift cannot call; these static inline
 * wrappers give them fixed signatures. Options travel in an MHD_OPTION_ARRAY ending with
 * MHD_OPTION_END; the logger goes first, as MHD asks (docs/http.md "Starting the daemon"). */
#ifndef SEGUE_CMICROHTTPD_SHIM_H
#define SEGUE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
/* glibc's malloc_trim, which Swift's Glibc module does not export: the transport gives freed
 * memory back to the system when the server is quiet (docs/http.md "Memory"). */
#include <malloc.h>

static inline struct MHD_Daemon *
segue_mhd_start(unsigned int flags, uint16_t port,
                MHD_AccessHandlerCallback handler, void *handler_cls,
                MHD_LogCallback logger, void *logger_cls,
                struct MHD_OptionItem *options)
{
  if (logger != NULL)
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
  return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

static inline unsigned int segue_mhd_current_connections(struct MHD_Daemon *d) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info ? info->num_connections : 0;
}

static inline uint16_t segue_mhd_bound_port(struct MHD_Daemon *d) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}
/* The connection's socket, or -1. */
static inline int segue_mhd_connection_fd(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info ? info->connect_fd : -1;
}

/* The per-connection pointer set in the MHD_OPTION_NOTIFY_CONNECTION callback, or NULL. */
static inline void *segue_mhd_socket_context(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? info->socket_context : NULL;
}

/* The client's address, or NULL. */
static inline const struct sockaddr *segue_mhd_client_address(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info ? info->client_addr : NULL;
}

#endif
