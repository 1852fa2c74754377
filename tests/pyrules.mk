# pyrules tests (issue 5).
