"""Output formats: the JSON export (the contract), HTML pages and story tables in the terminal."""
