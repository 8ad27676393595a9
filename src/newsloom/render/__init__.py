"""Output formats: JSON export (the contract), CSV tables and HTML pages."""
