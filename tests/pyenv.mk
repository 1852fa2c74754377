# pyenv tests (issue 5).
