"""Pure rules engines: no sockets, no clocks, no global randomness."""
