"""What every room shares: errors, the text check at the edges, compiled reads and writes, the announcement of a committed change, the API's error bodies, security headers."""
