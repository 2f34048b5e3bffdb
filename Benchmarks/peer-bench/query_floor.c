/* query-floor: the least a QueryItems service can do, for peer_bench.py's floors.
 *
 *   query-floor BUS-NAME REPLY-FILE
 *
 * Owns BUS-NAME on the session bus and answers org.xdgshare.Share1.QueryItems (aa{sv}a{sv}) at
 * /org/xdgshare/Share as xdg-share must at least: libdbus receives and validates the message,
 * then this walks every item's a{sv} checking what the interface checks (path an absolute `ay`
 * without NUL, mime-type a `s` with one slash and no space, url/text a `s`, exactly one of path,
 * url or text; unknown keys ignored), makes a bare stat() of each path given without a
 * mime-type, reads options["fields"], and replies with a copy of one reply built at start (as
 * xdg-share's reply cache does). REPLY-FILE holds that reply's aa{sv}: per dictionary,
 * KEY NUL VALUE NUL pairs (string values), then one more NUL. Peer.Ping is libdbus's own. */

#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static DBusMessage *template_reply;
static unsigned long checksum;

static DBusMessage *load_template(const char *file) {
  FILE *f = fopen(file, "rb");
  if (!f) return NULL;
  static char data[1 << 22];
  size_t size = fread(data, 1, sizeof data, f);
  fclose(f);
  DBusMessage *call = dbus_message_new_method_call(NULL, "/", NULL, "X");
  dbus_message_set_serial(call, 1);
  DBusMessage *m = dbus_message_new_method_return(call);
  dbus_message_unref(call);
  DBusMessageIter it, array, dict, entry, variant;
  dbus_message_iter_init_append(m, &it);
  dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "a{sv}", &array);
  size_t at = 0;
  while (at < size) {
    dbus_message_iter_open_container(&array, DBUS_TYPE_ARRAY, "{sv}", &dict);
    while (at < size && data[at] != 0) {
      const char *key = data + at;
      at += strlen(key) + 1;
      const char *value = data + at;
      at += strlen(value) + 1;
      dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
      dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
      dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
      dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
      dbus_message_iter_close_container(&entry, &variant);
      dbus_message_iter_close_container(&dict, &entry);
    }
    at++;
    dbus_message_iter_close_container(&array, &dict);
  }
  dbus_message_iter_close_container(&it, &array);
  return m;
}

/* Checks one item's a{sv}; 0 when it is not what the interface allows. */
static int walk_item(DBusMessageIter *dict) {
  int content = 0, typed = 0;
  const char *path = NULL;
  int path_length = 0;
  while (dbus_message_iter_get_arg_type(dict) == DBUS_TYPE_DICT_ENTRY) {
    DBusMessageIter entry, variant;
    const char *key;
    dbus_message_iter_recurse(dict, &entry);
    dbus_message_iter_get_basic(&entry, &key);
    dbus_message_iter_next(&entry);
    dbus_message_iter_recurse(&entry, &variant);
    int type = dbus_message_iter_get_arg_type(&variant);
    if (strcmp(key, "path") == 0) {
      if (type != DBUS_TYPE_ARRAY || dbus_message_iter_get_element_type(&variant) != DBUS_TYPE_BYTE) return 0;
      DBusMessageIter bytes;
      dbus_message_iter_recurse(&variant, &bytes);
      dbus_message_iter_get_fixed_array(&bytes, &path, &path_length);
      if (path_length > 0 && path[path_length - 1] == 0) path_length--;
      if (path_length == 0 || path[0] != '/' || memchr(path, 0, path_length)) return 0;
      content++;
    } else if (strcmp(key, "mime-type") == 0 || strcmp(key, "url") == 0 || strcmp(key, "text") == 0) {
      const char *value;
      if (type != DBUS_TYPE_STRING) return 0;
      dbus_message_iter_get_basic(&variant, &value);
      if (key[0] == 'm') {
        const char *slash = strchr(value, '/');
        if (!slash || slash == value || !slash[1] || strchr(slash + 1, '/') || strchr(value, ' ')) return 0;
        typed = 1;
      } else {
        content++;
      }
      checksum += strlen(value);
    }
    dbus_message_iter_next(dict);
  }
  if (content != 1) return 0;
  if (path && !typed) {
    char name[4096];
    struct stat status;
    if (path_length >= (int)sizeof name) return 0;
    memcpy(name, path, path_length);
    name[path_length] = 0;
    if (stat(name, &status) == 0) checksum += status.st_size;
  }
  return 1;
}

static DBusHandlerResult filter(DBusConnection *connection, DBusMessage *message, void *data) {
  (void)data;
  if (!dbus_message_is_method_call(message, "org.xdgshare.Share1", "QueryItems"))
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
  DBusMessage *reply = NULL;
  DBusMessageIter it, items, dict, options;
  int valid = dbus_message_has_signature(message, "aa{sv}a{sv}");
  if (valid) {
    dbus_message_iter_init(message, &it);
    dbus_message_iter_recurse(&it, &items);
    while (valid && dbus_message_iter_get_arg_type(&items) == DBUS_TYPE_ARRAY) {
      dbus_message_iter_recurse(&items, &dict);
      valid = walk_item(&dict);
      dbus_message_iter_next(&items);
    }
    dbus_message_iter_next(&it);
    dbus_message_iter_recurse(&it, &options);
    while (dbus_message_iter_get_arg_type(&options) == DBUS_TYPE_DICT_ENTRY) {
      DBusMessageIter entry;
      const char *key;
      dbus_message_iter_recurse(&options, &entry);
      dbus_message_iter_get_basic(&entry, &key);
      checksum += strlen(key);
      dbus_message_iter_next(&options);
    }
  }
  if (valid) {
    reply = dbus_message_copy(template_reply);
    dbus_message_set_reply_serial(reply, dbus_message_get_serial(message));
    dbus_message_set_destination(reply, dbus_message_get_sender(message));
  } else {
    reply = dbus_message_new_error(message, DBUS_ERROR_INVALID_ARGS, "invalid items");
  }
  dbus_connection_send(connection, reply, NULL);
  dbus_message_unref(reply);
  return DBUS_HANDLER_RESULT_HANDLED;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: query-floor BUS-NAME REPLY-FILE\n");
    return 2;
  }
  template_reply = load_template(argv[2]);
  if (!template_reply) {
    fprintf(stderr, "query-floor: cannot read %s\n", argv[2]);
    return 1;
  }
  DBusError error;
  dbus_error_init(&error);
  DBusConnection *connection = dbus_bus_get(DBUS_BUS_SESSION, &error);
  if (!connection) {
    fprintf(stderr, "query-floor: %s\n", error.message);
    return 1;
  }
  dbus_connection_add_filter(connection, filter, NULL, NULL);
  if (dbus_bus_request_name(connection, argv[1], DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) !=
      DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
    fprintf(stderr, "query-floor: could not own %s\n", argv[1]);
    return 1;
  }
  while (dbus_connection_read_write_dispatch(connection, -1)) {
  }
  return checksum == 42 ? 3 : 0;
}
