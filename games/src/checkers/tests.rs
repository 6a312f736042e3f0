//! Rules, notation and evaluation tests for checkers.
