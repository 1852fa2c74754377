# The manual page, cudawiz(1). man/cudawiz.1.in is the source; the
# installed page has the real helper directory and version substituted,
# the directory with a break point (\:) after each "/" so that a long
# prefix (make distcheck's) still fits 80 columns without a warning.
man_MANS = man/cudawiz.1
EXTRA_DIST += man/cudawiz.1.in
CLEANFILES += man/cudawiz.1

man/cudawiz.1: $(top_srcdir)/man/cudawiz.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) man && \
	sed -e 's|@pkglibexecdir[@]|$(pkglibexecdir)|g' \
	    -e '/^\.I .*\/cudawiz\\-verify$$/s|/|/\\:|g' \
	    -e 's|@VERSION[@]|$(VERSION)|g' \
	    $(top_srcdir)/man/cudawiz.1.in >$@.tmp && mv -f $@.tmp $@
