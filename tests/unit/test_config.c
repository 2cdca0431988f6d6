/*
 * test_config.c -- the option table and GPGPU-Sim style config text: every
 * option has a default and help, values round-trip, and bad input (unknown
 * options, bad values, missing values, unterminated quotes, unreadable
 * files) fails with "file:line: ..." and leaves no partial damage.
 */
#include <string.h>

#include "lockstep.h"
#include "test.h"

static void test_table(void)
{
    size_t n = lockstep_config_option_count();
    CHECK(n >= 10);
    lockstep_config *cfg;
    CHECK(lockstep_config_create(&cfg) == LOCKSTEP_SUCCESS);
    for (size_t i = 0; i < n; i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        CHECK(o && o->name[0] == '-' && o->help[0] && o->def[0]);
        char buf[128];
        CHECK_MSG(lockstep_config_get(cfg, o->name, buf, sizeof buf) == LOCKSTEP_SUCCESS, "%s", o->name);
        CHECK_MSG(!strcmp(buf, o->def), "%s: default %s, value %s", o->name, o->def, buf);
    }
    CHECK(lockstep_config_option(n) == NULL);
    lockstep_config_destroy(cfg);
}

static void test_set_get(void)
{
    lockstep_config *cfg;
    lockstep_config_create(&cfg);
    char buf[64];
    CHECK(lockstep_config_set(cfg, "-gpgpu_n_clusters", "80") == LOCKSTEP_SUCCESS);
    CHECK(lockstep_config_set(cfg, "lockstep_device_memory", "2G") == LOCKSTEP_SUCCESS);
    lockstep_config_get(cfg, "gpgpu_n_clusters", buf, sizeof buf);
    CHECK(!strcmp(buf, "80"));
    lockstep_config_get(cfg, "-lockstep_device_memory", buf, sizeof buf);
    CHECK(!strcmp(buf, "2147483648"));
    CHECK(lockstep_config_set(cfg, "-gpgpu_n_clusters", "0") == LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "-gpgpu_n_clusters: bad value '0'");
    CHECK(lockstep_config_set(cfg, "-gpgpu_n_clusters", "12x") == LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK(lockstep_config_set(cfg, "-gpgpu_n_clusters", "-3") == LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK(lockstep_config_set(cfg, "-gpgpu_n_clusters", "99999999999999999999999") == LOCKSTEP_ERROR_INVALID_CONFIG);
    lockstep_config_get(cfg, "gpgpu_n_clusters", buf, sizeof buf);
    CHECK(!strcmp(buf, "80")); /* a failed set changes nothing */
    CHECK(lockstep_config_set(cfg, "-no_such_option", "1") == LOCKSTEP_ERROR_INVALID_CONFIG);
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "unknown option '-no_such_option'");
    CHECK(lockstep_config_set(cfg, "-gpgpu_shader_core_pipeline", "2048:32") == LOCKSTEP_SUCCESS);
    CHECK(lockstep_config_set(cfg, "-gpgpu_shader_core_pipeline", "2048:16") == LOCKSTEP_ERROR_INVALID_CONFIG);
    lockstep_config *copy;
    CHECK(lockstep_config_copy(cfg, &copy) == LOCKSTEP_SUCCESS);
    lockstep_config_get(copy, "gpgpu_shader_core_pipeline", buf, sizeof buf);
    CHECK(!strcmp(buf, "2048:32"));
    lockstep_config_destroy(copy);
    lockstep_config_destroy(cfg);
}

static void test_parse_text(void)
{
    lockstep_config *cfg;
    lockstep_config_create(&cfg);
    const char *good = "# a GPGPU-Sim style config\n"
                       "-gpgpu_n_clusters 15   # Fermi\n"
                       "-gpgpu_n_cores_per_cluster 1 -gpgpu_shmem_size 49152\n"
                       "\n-gpgpu_shader_core_pipeline \"1536:32\"\n";
    CHECK(lockstep_config_parse(cfg, good, strlen(good), "fermi.config") == LOCKSTEP_SUCCESS);
    struct {
        const char *text, *msg;
    } bad[] = {
        {"-gpgpu_n_clusters 15\n-frobnicate 3\n", "bad.config:2: unknown option '-frobnicate'"},
        {"\n\n-gpgpu_n_clusters\n", "bad.config:3: -gpgpu_n_clusters: missing value"},
        {"-gpgpu_n_clusters fifteen\n", "bad.config:1: -gpgpu_n_clusters: bad value 'fifteen'"},
        {"gpgpu_n_clusters 15\n", "bad.config:1: expected an option"},
        {"-gpgpu_shader_core_pipeline \"1536:32\n", "bad.config:1: -gpgpu_shader_core_pipeline: unterminated quoted value"},
        {"-gpgpu_shader_core_pipeline 1536\n", "bad.config:1: -gpgpu_shader_core_pipeline: bad value '1536'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lockstep_status st = lockstep_config_parse(cfg, bad[i].text, strlen(bad[i].text), "bad.config");
        CHECK_MSG(st == LOCKSTEP_ERROR_INVALID_CONFIG, "case %zu: %s", i, lockstep_status_name(st));
        CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), bad[i].msg);
    }
    CHECK(lockstep_config_load_file(cfg, "/nonexistent/x.config") == LOCKSTEP_ERROR_IO);
    CHECK_STR_CONTAINS(lockstep_config_last_error(cfg), "/nonexistent/x.config: cannot open");
    /* arbitrary bytes never crash */
    char junk[256];
    for (int i = 0; i < 256; i++)
        junk[i] = (char)(i * 37 + 11);
    lockstep_config_parse(cfg, junk, sizeof junk, "junk");
    lockstep_config_destroy(cfg);
}

static void test_device_uses_config(void)
{
    lockstep_config *cfg;
    lockstep_config_create(&cfg);
    lockstep_config_set(cfg, "-lockstep_device_memory", "1M");
    lockstep_device *dev;
    CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg); /* the device keeps its own copy */
    size_t fr, total;
    CHECK(lockstep_mem_info(dev, &fr, &total) == LOCKSTEP_SUCCESS);
    CHECK_EQ_U64(total, 1 << 20);
    lockstep_dptr p;
    CHECK(lockstep_malloc(dev, 2 << 20, &p) == LOCKSTEP_ERROR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(lockstep_device_last_error(dev), "cannot allocate");
    CHECK(lockstep_malloc(dev, 1000, &p) == LOCKSTEP_SUCCESS);
    CHECK_EQ_U64(p % 256, 0);
    CHECK(lockstep_free(dev, p + 4) == LOCKSTEP_ERROR_INVALID_VALUE);
    CHECK(lockstep_free(dev, p) == LOCKSTEP_SUCCESS);
    CHECK(lockstep_free(dev, p) == LOCKSTEP_ERROR_INVALID_VALUE); /* double free */
    char buf[8];
    CHECK(lockstep_memcpy_dtoh(dev, buf, p, 8) == LOCKSTEP_ERROR_INVALID_VALUE); /* freed */
    CHECK(lockstep_malloc(dev, 0, &p) == LOCKSTEP_ERROR_INVALID_VALUE);
    char name[8];
    CHECK(lockstep_config_get(lockstep_device_config(dev), "-lockstep_device_memory", name, sizeof name) ==
          LOCKSTEP_SUCCESS);
    CHECK(!strcmp(name, "1048576"));
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_table);
    RUN(test_set_get);
    RUN(test_parse_text);
    RUN(test_device_uses_config);
    return test_summary();
}
