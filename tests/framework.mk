# framework tests (issue 5).
