// Clang thread-safety annotations. With clang and -Wthread-safety (the
// default for clang builds, see the root CMakeLists.txt) the compiler checks
// that fields marked GUARDED_BY are only touched with their mutex held and
// that functions marked REQUIRES are only called with it held. With other
// compilers the macros expand to nothing.
#pragma once

#if defined(__clang__)
#define ICS_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define ICS_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) ICS_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY ICS_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) ICS_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) ICS_THREAD_ANNOTATION(pt_guarded_by(x))
#define ACQUIRED_BEFORE(...) ICS_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define ACQUIRED_AFTER(...) ICS_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#define REQUIRES(...) ICS_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) ICS_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define ACQUIRE(...) ICS_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) ICS_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) ICS_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) ICS_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) ICS_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) ICS_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define EXCLUDES(...) ICS_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define RETURN_CAPABILITY(x) ICS_THREAD_ANNOTATION(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS ICS_THREAD_ANNOTATION(no_thread_safety_analysis)
