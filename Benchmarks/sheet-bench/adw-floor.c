/* The floor of the picker's start-up benchmark: a bare AdwApplication window (a header bar and a
 * label), reporting its first frame as xdg-share-sheet does with XDG_SHARE_SHEET_TIMING=1. */
#include <adwaita.h>
#include <stdio.h>
#include <time.h>

static void report(const char *event) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  fprintf(stderr, "%s %lld\n", event, (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
}

static void after_paint(GdkFrameClock *clock, gpointer data) {
  report("first-frame");
  g_signal_handlers_disconnect_by_func(clock, after_paint, data);
}

static void activate(GtkApplication *app, gpointer data) {
  (void)data;
  report("activate");
  GtkWidget *window = adw_application_window_new(app);
  gtk_window_set_title(GTK_WINDOW(window), "Share");
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append(GTK_BOX(box), adw_header_bar_new());
  gtk_box_append(GTK_BOX(box), gtk_label_new("Hello"));
  adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), box);
  gtk_window_present(GTK_WINDOW(window));
  g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(after_paint), NULL);
}

int main(void) {
  AdwApplication *app = adw_application_new("org.xdgshare.Floor", G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
  int status = g_application_run(G_APPLICATION(app), 0, NULL);
  g_object_unref(app);
  return status;
}
