#ifndef XDG_SHARE_CSECRET_SHIM_H
#define XDG_SHARE_CSECRET_SHIM_H
#include <libsecret/secret.h>

/* A GHashTable of strings that owns copies of its keys and values, as libsecret's attribute
   tables are; g_str_hash and g_free are passed here rather than as function pointers from Swift. */
static inline GHashTable *xs_string_table_new(void) {
  return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}
static inline void xs_string_table_insert(GHashTable *table, const char *key, const char *value) {
  g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}

/* A schema whose attributes are all strings. secret_schema_new is variadic, which Swift cannot
   call, and its table's values are GINT_TO_POINTER casts, which Swift does not import.
   secret_schema_newv copies the names. */
static inline SecretSchema *xs_string_schema_new(const char *name, const char *const *attributes,
                                                 unsigned count) {
  GHashTable *types = g_hash_table_new(g_str_hash, g_str_equal);
  for (unsigned index = 0; index < count; index++) {
    g_hash_table_insert(types, (gpointer)attributes[index],
                        GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING));
  }
  SecretSchema *schema = secret_schema_newv(name, SECRET_SCHEMA_NONE, types);
  g_hash_table_unref(types);
  return schema;
}
#endif
