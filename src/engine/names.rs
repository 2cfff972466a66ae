//! Named options (ordering schemes, evaluation modes, value presets...) derive their names
//! with `strum`; this is the one place that words the error for a name that is none of them.

use strum::VariantArray;

/// "`text`: not `what` (a, b, c)": the refusal of an unknown name, listing every name the
/// enum accepts in declaration order. `what` comes with its article ("an ordering scheme").
pub fn not_one_of<T>(text: &str, what: &str) -> String
where
    T: VariantArray + Copy + Into<&'static str>,
{
    let names: Vec<&'static str> = T::VARIANTS.iter().map(|&v| v.into()).collect();
    format!("{text}: not {what} ({})", names.join(", "))
}

/// `VARIANTS` as an array, for the `ALL` constants callers iterate by value. Evaluated at
/// compile time: a length that does not match the enum stops the build.
pub const fn all<T: Copy, const N: usize>(variants: &[T]) -> [T; N] {
    assert!(variants.len() == N, "ALL must list every variant");
    match variants.first_chunk::<N>() {
        Some(array) => *array,
        None => panic!("ALL must list every variant"),
    }
}
