#ifndef TYPIST_CREADLINE_SHIM_H
#define TYPIST_CREADLINE_SHIM_H

#include <stdio.h>  /* readline.h uses FILE but does not include stdio.h */
#include <readline/readline.h>
#include <readline/history.h>

/* Readline's globals, re-declared so Swift 6 lets LineEditor touch them; LineEditor confines every
   use to one serial queue. */
#define TYPIST_NONISOLATED_UNSAFE __attribute__((swift_attr("nonisolated(unsafe)")))
extern TYPIST_NONISOLATED_UNSAFE const char *rl_readline_name;
extern TYPIST_NONISOLATED_UNSAFE rl_completion_func_t *rl_attempted_completion_function;
extern TYPIST_NONISOLATED_UNSAFE const char *rl_completer_word_break_characters;
extern TYPIST_NONISOLATED_UNSAFE int rl_attempted_completion_over;
extern TYPIST_NONISOLATED_UNSAFE int rl_completion_append_character;
extern TYPIST_NONISOLATED_UNSAFE int rl_completion_suppress_append;
extern TYPIST_NONISOLATED_UNSAFE char *rl_line_buffer;
extern TYPIST_NONISOLATED_UNSAFE int rl_point;
extern TYPIST_NONISOLATED_UNSAFE int rl_catch_signals;
extern TYPIST_NONISOLATED_UNSAFE int rl_catch_sigwinch;
extern TYPIST_NONISOLATED_UNSAFE int rl_sort_completion_matches;
extern TYPIST_NONISOLATED_UNSAFE int history_length;
extern TYPIST_NONISOLATED_UNSAFE int history_base;

#endif
