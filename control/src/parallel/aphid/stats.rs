//! Counter structs that sum and report themselves: [`counters!`] declares a struct of `u64`
//! counters together with its `+=` and `Sum` and the figures the result reports, so that a new
//! counter is one field (with its doc comment) and nothing else.

/// Declares a struct of `u64` counters (the attributes and doc comments are kept) with:
///
/// - `AddAssign` and `Sum`, adding field by field (summing processors' statistics); fields
///   listed in an optional `maxima { ... }` block after the struct's body keep the largest
///   value instead;
/// - `Display`: one `name: value` line per counter, the name being `$prefix` followed by the
///   field's name, in declaration order, the maxima last (`runner search --verbose`).
macro_rules! counters {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident, prefix $prefix:literal {
            $( $(#[$field_meta:meta])* $field_vis:vis $field:ident, )*
        }
        $( maxima {
            $( $(#[$max_meta:meta])* $max_vis:vis $max:ident, )*
        } )?
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: u64, )*
            $( $( $(#[$max_meta])* $max_vis $max: u64, )* )?
        }

        impl ::std::ops::AddAssign for $name {
            fn add_assign(&mut self, other: Self) {
                $( self.$field += other.$field; )*
                $( $( self.$max = self.$max.max(other.$max); )* )?
            }
        }

        impl ::std::iter::Sum for $name {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Self::default(), |mut sum, s| {
                    sum += s;
                    sum
                })
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                $( writeln!(f, "{}{}: {}", $prefix, stringify!($field), self.$field)?; )*
                $( $( writeln!(f, "{}{}: {}", $prefix, stringify!($max), self.$max)?; )* )?
                Ok(())
            }
        }
    };
}

pub(crate) use counters;

#[cfg(test)]
mod tests {
    counters! {
        /// Two counters.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        struct Pair, prefix "pair_" {
            /// The first.
            a,
            /// The second.
            b,
        }
    }

    #[test]
    fn counters_add_sum_and_name_every_field() {
        let mut x = Pair { a: 1, b: 2 };
        x += Pair { a: 10, b: 20 };
        assert_eq!(x, Pair { a: 11, b: 22 });
        let total: Pair = [x, Pair { a: 1, b: 0 }, Pair::default()].into_iter().sum();
        assert_eq!(total, Pair { a: 12, b: 22 });
        assert_eq!(total.to_string(), "pair_a: 12\npair_b: 22\n");
    }
}
