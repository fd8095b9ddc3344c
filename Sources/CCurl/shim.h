#ifndef TYPIST_CCURL_SHIM_H
#define TYPIST_CCURL_SHIM_H

#include <curl/curl.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

/* Names the calling thread (prctl is variadic too). Foundation's Thread.name on Linux may not
   reach a thread that has only just started. */
static inline void typist_name_current_thread(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
#else
    (void)name;
#endif
}

/* curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
   one typed wrapper for each kind of argument TypedAPICurl passes. */

typedef size_t (*typist_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode typist_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode typist_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode typist_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode typist_curl_set_callback(CURL *handle, CURLoption option, typist_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLMcode typist_curl_multi_set_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

static inline CURLcode typist_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
