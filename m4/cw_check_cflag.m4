# CW_CHECK_CFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT])
# Compile an empty program with FLAG (and -Werror, so an unknown warning
# option is a failure, not a note) and run the matching action.
AC_DEFUN([CW_CHECK_CFLAG], [
  AS_VAR_PUSHDEF([cw_var], [cw_cv_cflag_$1])
  AC_CACHE_CHECK([whether $CC accepts $1], [cw_var], [
    cw_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $1"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AS_VAR_SET([cw_var], [yes])], [AS_VAR_SET([cw_var], [no])])
    CFLAGS=$cw_save_CFLAGS])
  AS_VAR_IF([cw_var], [yes], [$2], [$3])
  AS_VAR_POPDEF([cw_var])
])
