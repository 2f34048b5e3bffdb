/* Shares a file from a sandboxed app through xdg-share, as a Flatpak app does: the file is
 * handed over as a descriptor, never by its path (which means nothing outside the sandbox).
 *
 *     share_file FILE [SERVICE-ID]
 *
 * Without SERVICE-ID, the share sheet opens (ShowPicker) and the user chooses; with one, the file
 * goes to that service at once (Share). Prints how the share ended, as the Response says it.
 *
 *     cc share_file.c -o share_file $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0)
 */
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdio.h>
#include <unistd.h>

#define BUS_NAME "org.xdgshare.Share"
#define OBJECT_PATH "/org/xdgshare/Share"

typedef struct {
  GMainLoop *loop;
  guint32 code;
  GVariant *results;
} Ended;

static void on_response(G_GNUC_UNUSED GDBusConnection *bus, G_GNUC_UNUSED const char *sender,
                        G_GNUC_UNUSED const char *path, G_GNUC_UNUSED const char *interface,
                        G_GNUC_UNUSED const char *signal, GVariant *parameters, gpointer data) {
  Ended *ended = data;
  g_variant_get(parameters, "(u@a{sv})", &ended->code, &ended->results);
  g_main_loop_quit(ended->loop);
}

static int failed(GError *error) {
  fprintf(stderr, "share_file: %s\n", error->message);
  return 2;
}

static const char *lookup(GVariant *results, const char *key) {
  const char *value = NULL;
  if (!g_variant_lookup(results, key, "&s", &value)) value = "-";
  return value;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: share_file FILE [SERVICE-ID]\n");
    return 2;
  }
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL) return failed(error);
  g_autoptr(GDBusProxy) proxy = g_dbus_proxy_new_sync(bus, G_DBUS_PROXY_FLAGS_NONE, NULL, BUS_NAME, OBJECT_PATH,
                                                      "org.xdgshare.Share1", NULL, &error);
  if (proxy == NULL) return failed(error);

  /* The descriptor goes in a GUnixFDList; the item's "fd" is its index there ('h'). */
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    perror(argv[1]);
    return 2;
  }
  g_autoptr(GUnixFDList) fds = g_unix_fd_list_new();
  int index = g_unix_fd_list_append(fds, fd, &error);
  close(fd);
  if (index < 0) return failed(error);
  g_autofree char *name = g_path_get_basename(argv[1]);
  GVariantBuilder items;
  g_variant_builder_init(&items, G_VARIANT_TYPE("aa{sv}"));
  g_variant_builder_open(&items, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&items, "{sv}", "fd", g_variant_new_handle(index));
  g_variant_builder_add(&items, "{sv}", "name", g_variant_new_string(name));
  g_variant_builder_close(&items);

  /* Subscribed before the call, with a token of our own, so that no Response is missed. */
  g_autofree char *token = g_strdup_printf("share_file_%d", (int)getpid());
  g_autofree char *sender = g_strdelimit(g_strdup(g_dbus_connection_get_unique_name(bus) + 1), ".", '_');
  g_autofree char *handle = g_strdup_printf(OBJECT_PATH "/request/%s/%s", sender, token);
  Ended ended = {g_main_loop_new(NULL, FALSE), 0, NULL};
  g_dbus_connection_signal_subscribe(bus, BUS_NAME, "org.xdgshare.Request1", "Response", handle, NULL,
                                     G_DBUS_SIGNAL_FLAGS_NONE, on_response, &ended, NULL);
  GVariantBuilder options;
  g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(token));
  GVariant *arguments = g_variant_new("(saa{sv}a{sv})", argc > 2 ? argv[2] : "", &items, &options);
  /* The same arguments: Share takes the service, ShowPicker the parent window ("" here). */
  g_autoptr(GVariant) reply = g_dbus_proxy_call_with_unix_fd_list_sync(
      proxy, argc > 2 ? "Share" : "ShowPicker", arguments, G_DBUS_CALL_FLAGS_NONE, -1, fds, NULL, NULL, &error);
  if (reply == NULL) return failed(error);
  g_main_loop_run(ended.loop);

  const char *message = NULL;
  g_variant_lookup(ended.results, "message", "&s", &message);
  printf("%s: service %s, request %s%s%s%s\n", lookup(ended.results, "outcome"), lookup(ended.results, "service"),
         lookup(ended.results, "request"), message ? " (" : "", message ? message : "", message ? ")" : "");
  g_variant_unref(ended.results);
  g_main_loop_unref(ended.loop);
  return ended.code == 0 ? 0 : 1;
}
