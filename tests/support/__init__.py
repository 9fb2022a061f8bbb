"""What the tests share: browser drivers, stub pages, evaluation sets, source parsers."""
