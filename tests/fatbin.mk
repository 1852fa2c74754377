# fatbin tests (issue 5).
