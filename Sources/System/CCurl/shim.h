#ifndef XDG_SHARE_CCURL_SHIM_H
#define XDG_SHARE_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   function per kind of argument. */
static inline CURLcode xs_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode xs_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}
/* Also for string options: libcurl copies strings (except CURLOPT_ERRORBUFFER's buffer). */
static inline CURLcode xs_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode xs_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode xs_setopt_read_function(CURL *handle, curl_read_callback function) {
  return curl_easy_setopt(handle, CURLOPT_READFUNCTION, function);
}
static inline CURLcode xs_setopt_write_function(CURL *handle, curl_write_callback function) {
  return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode xs_setopt_header_function(CURL *handle, curl_write_callback function) {
  return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}
static inline CURLcode xs_setopt_progress_function(CURL *handle, curl_xferinfo_callback function) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}
static inline CURLcode xs_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

/* Macros that are casts or expressions, which Swift does not import. */
static const long XS_CURL_GLOBAL_DEFAULT = CURL_GLOBAL_DEFAULT;
static const long XS_CURLAUTH_BASIC = (long)CURLAUTH_BASIC;
static const size_t XS_CURL_READFUNC_ABORT = CURL_READFUNC_ABORT;
static const int XS_CURL_ERROR_SIZE = CURL_ERROR_SIZE;
#endif
