//! Tuning the `full` evaluation by the Texel method: self-play games give quiet
//! positions labelled with their game's result ([`selfplay`], [`data`]); [`fit`] fits the
//! evaluation's weights to them.
pub mod data;
pub mod fit;
pub mod nn;
pub mod selfplay;
