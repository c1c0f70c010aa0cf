"""The release of landlord-dsl, written here once.

The package's `__version__`, the wheel's version (pyproject.toml) and
`landlord-dsl --version` all read it.
"""

__version__ = "0.1.0"
