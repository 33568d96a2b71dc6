/* SPDX-License-Identifier: MIT */
/*
 * Markers in C++: a region object that ends its region when it goes out
 * of scope, however the scope is left (its end, return, break, continue,
 * goto, an exception).
 *
 *	#include <selfmon/marker.hpp>
 *
 *	void solve()
 *	{
 *		SELFMON_MARKER_REGION("solve");
 *		...			// every way out ends "solve"
 *	}
 *
 * SELFMON_MARKER_REGION() is the cached form (SELFMON_MARKER_BEGIN() and
 * SELFMON_MARKER_END() of <selfmon/marker.h>) at the same cost: its
 * constructor and destructor are those two macros, always inlined, so on
 * arm64 the region counts exactly what the pair counts, and costs an
 * enclosing region what a pair does, from -O1 on; at -O0 it is C's
 * SELFMON_MARKER_SCOPE(), exact there too. selfmon::marker_region is the
 * by-name form, for a name built at
 * run time. Everything else (the environment, the report) is marker.h's;
 * docs/markers.md, "The scope forms, and C++".
 */
#ifndef SELFMON_MARKER_HPP
#define SELFMON_MARKER_HPP

#ifndef __cplusplus
#error "<selfmon/marker.hpp> is C++: C has SELFMON_MARKER_SCOPE() in <selfmon/marker.h>"
#endif

#include <selfmon/marker.h>

/*
 * One class per use, local to the block: its constructor and destructor
 * hold the literal, so each expands the arch's fixed sequence with the
 * name's address made in place, as the pair does (a member holding the
 * name would be loaded from wherever the compiler kept it, an instruction
 * or two the pair does not have, inside the region).
 */
#define SELFMON_PRIV_MARKER_REGION(name, type, var)        \
	struct type {                                   \
		__attribute__((always_inline)) type()   \
		{                                       \
			SELFMON_MARKER_BEGIN(name);     \
		}                                       \
		__attribute__((always_inline)) ~type()  \
		{                                       \
			SELFMON_MARKER_END(name);       \
		}                                       \
		type(const type &) = delete;            \
		type &operator=(const type &) = delete; \
	} const var

#if !defined(__OPTIMIZE__) && defined(SELFMON_ARCH_MARKER_SCOPE)
/*
 * At -O0 an object's inlined constructor and destructor keep code of
 * their own inside the region (g++ a nop for each inlined body's end,
 * clang++ `this` stored for each): there the region is C's scope form,
 * whose end at -O0 is the arch's stub, measured by the library. The
 * cleanup attribute runs on every way out, an exception's unwinding too.
 * Its variable is initialized (before the begin: outside the region), so
 * that a goto past it is the compiler's error, as past an object.
 */
#define SELFMON_PRIV_MARKER_REGION_AT(name, id) \
	SELFMON_PRIV_MARKER_SCOPE_STUB_INIT(name, SELFMON_PRIV_MARKER_CAT(selfmon_marker_region_, id), = nullptr)
#else
#define SELFMON_PRIV_MARKER_REGION_AT(name, id) SELFMON_PRIV_MARKER_REGION_ID(name, id)
#endif

/**
 * SELFMON_MARKER_REGION() - begin region @name here and end it when the
 * enclosing scope is left, however it is left
 * @name: the region, a string literal
 *
 * Declares an object with no name to use: at most one a line (it is named
 * by __COUNTER__). Costs what SELFMON_MARKER_BEGIN() and
 * SELFMON_MARKER_END() cost; with markers off, a load and a branch at each
 * end. At -O0, SELFMON_MARKER_SCOPE() (<selfmon/marker.h>), whose costs
 * are its own.
 */
#define SELFMON_MARKER_REGION(name) SELFMON_PRIV_MARKER_REGION_AT(name, __COUNTER__)
#define SELFMON_PRIV_MARKER_REGION_ID(name, id)                                              \
	SELFMON_PRIV_MARKER_REGION(name, SELFMON_PRIV_MARKER_CAT(selfmon_marker_region_t_, id), \
				SELFMON_PRIV_MARKER_CAT(selfmon_marker_region_, id))

namespace selfmon {

/**
 * class marker_region - region @name from the object's construction to its
 * destruction, by name: selfmon_marker__begin() and selfmon_marker__end()
 * (a lookup at each call; a name in a buffer is compared in full). For a
 * name known only at run time; a string literal is cheaper with
 * SELFMON_MARKER_REGION(). @name must outlive the object. Both always
 * inlined, so that at -O0 as well the region holds no call of the
 * compiler's (a destructor called: 12 instructions over, on arm64).
 */
class marker_region {
      public:
	__attribute__((always_inline)) explicit marker_region(const char *name) noexcept : name_(name)
	{
		selfmon_marker__begin(name_);
	}
	__attribute__((always_inline)) ~marker_region()
	{
		selfmon_marker__end(name_);
	}
	marker_region(const marker_region &) = delete;
	marker_region &operator=(const marker_region &) = delete;

      private:
	const char *name_;
};

} /* namespace selfmon */

#endif /* SELFMON_MARKER_HPP */
