// SPDX-License-Identifier: MIT
/*
 * A program with markers (tests/check_plugin.sh): N pairs of its own, then,
 * with a PLUGIN, dlopen() it, run N of its pairs, dlclose() it, and one
 * pair more of its own after the plugin is gone; it says on stderr how many
 * of the plugin's sites were left unresolved at its load. Without NO_MARKERS it
 * counts regions of its own; with it (the loader of a plugin that carries
 * the library inside) it has none and links no selfmon.
 * With HOST_THREAD=1 in the environment the plugin is loaded, run and
 * unloaded by a thread of its own, which exits after the dlclose(): a
 * thread key destructor the unloaded code left behind would crash it.
 * Usage: host N [PLUGIN.so]
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef NO_MARKERS
#include <selfmon/marker.h>
#else
#define SELFMON_MARKER_BEGIN(name) ((void)0)
#define SELFMON_MARKER_END(name) ((void)0)
#endif

static volatile unsigned long sink;

/* Load @path, run @n pairs of its plugin_work(), unload it. Return: 0, or 2 with a message. */
static int run_plugin(const char *path, int n)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	int (*work)(int), (*unresolved)(int *), sites = 0;

	if (!h) {
		fprintf(stderr, "host: dlopen '%s': %s\n", path, dlerror());
		return 2;
	}
	/* Its sites as it was loaded, before any of its calls. */
	*(void **)&unresolved = dlsym(h, "plugin_unresolved");
	if (unresolved) {
		int left = unresolved(&sites);

		fprintf(stderr, "host: %d of the plugin's %d sites unresolved at load\n", left, sites);
	}
	*(void **)&work = dlsym(h, "plugin_work");
	if (!work || work(n)) {
		fprintf(stderr, "host: '%s' has no plugin_work()\n", path);
		dlclose(h);
		return 2;
	}
	if (dlclose(h)) {
		fprintf(stderr, "host: dlclose '%s': %s\n", path, dlerror());
		return 2;
	}
	return 0;
}

struct plugin_run {
	const char *path;
	int n, err;
};

static void *plugin_thread(void *p)
{
	struct plugin_run *r = p;

	r->err = run_plugin(r->path, r->n);
	return NULL;
}

/* run_plugin() in a thread of its own, which exits once the plugin is unloaded. */
static int run_plugin_in_thread(const char *path, int n)
{
	struct plugin_run r = { path, n, 2 };
	pthread_t t;

	if (pthread_create(&t, NULL, plugin_thread, &r) || pthread_join(t, NULL)) {
		fprintf(stderr, "host: no thread for the plugin\n");
		return 2;
	}
	return r.err;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	const char *in_thread = getenv("HOST_THREAD");

	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("host loop");
		sink += (unsigned long)i;
		SELFMON_MARKER_END("host loop");
	}
	if (argc > 2 && (in_thread && *in_thread == '1' ? run_plugin_in_thread(argv[2], n) :
							 run_plugin(argv[2], n)))
		return 2;
	/* The program's markers still count with the plugin gone. */
	SELFMON_MARKER_BEGIN("host after");
	sink++;
	SELFMON_MARKER_END("host after");
	return 0;
}
