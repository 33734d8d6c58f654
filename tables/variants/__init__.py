"""Tables of three (winner stays) and four (partnership gin): each deal at its own two-seat board."""
