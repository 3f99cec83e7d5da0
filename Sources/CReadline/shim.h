// GNU readline and its history, from the system's libreadline-dev, and the C library's
// terminal column widths (wcwidth, which readline itself uses to lay out the line).
#include <wchar.h>
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// Readline keeps its settings in mutable C globals, which Swift 6 will not touch directly.
// These accessors are the only way the console reads or sets them (see LineEditor.swift).
static inline void gtio_rl_set_name(const char *name) { rl_readline_name = name; }
static inline void gtio_rl_set_catch_signals(int value) { rl_catch_signals = value; }
static inline void gtio_rl_set_completion(rl_completion_func_t *function) { rl_attempted_completion_function = function; }
static inline void gtio_rl_set_completion_over(int value) { rl_attempted_completion_over = value; }
static inline const char *gtio_rl_line_buffer(void) { return rl_line_buffer; }
// Words end at white space only: `provider=goo`, `track[name=Up` and `props.size` are each one
// word to the console's completer (readline's default also breaks at `=`, quotes and more).
static inline void gtio_rl_set_word_breaks(void) { rl_completer_word_break_characters = (char *)" \t\n"; }
// A word may open with a quote (`followers 'ann l`): readline then completes what follows it,
// tells which quote it was, and closes it after a sole match.
static inline void gtio_rl_set_quote_characters(void) { rl_completer_quote_characters = "'\""; }
static inline int gtio_rl_completion_quote_character(void) { return rl_completion_quote_character; }
// What follows a sole match; readline sets it back to a space before each completion.
static inline void gtio_rl_set_completion_append(int character) { rl_completion_append_character = character; }
static inline int gtio_history_base(void) { return history_base; }
static inline int gtio_history_length(void) { return history_length; }

// glibc declares wcwidth only under _XOPEN_SOURCE, and defining that here would change struct
// layouts (struct tm) against Swift's own Glibc module; so the libc symbol is declared as is.
extern int wcwidth(wchar_t character);
static inline int gtio_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
