//! The Connect Four books: the binary form, merging, the scores derived from children's, the
//! positions a build solves, and the two shipped books (docs/solver.md, "The exact book").

use tictactoe::connect4::{
    Book, BookError, CELLS, Column, Position, Solver, positions_of, positions_up_to,
};

fn children(position: Position) -> Vec<Position> {
    Column::ALL
        .into_iter()
        .filter_map(|c| position.play(c).ok())
        .collect()
}

#[test]
fn positions_are_every_reachable_one_once_up_to_mirror() {
    // The numbers of positions after n plies, counted with both mirror images (OEIS A212693;
    // no game can end before the 7th ply): each canonical position stands for itself and its
    // mirror image, which is the same position when it is symmetric.
    let published = [1, 7, 49, 238, 1120, 4263, 16422];
    let levels = positions_up_to(6);
    for (ply, (level, count)) in levels.iter().zip(published).enumerate() {
        let symmetric = level.iter().filter(|p| p.key() == p.mirror_key()).count();
        assert_eq!(2 * level.len() - symmetric, count, "ply {ply}");
        assert!(
            level
                .iter()
                .all(|p| p.moves() == ply && p.key() == p.canonical_key())
        );
    }
    assert_eq!(positions_of(6), levels[6]);
    // Past the 7th ply, positions where a game ended are not positions: none holds four.
    for position in positions_of(8).into_iter().step_by(97) {
        assert_eq!(Position::from_key(position.key()), Some(position));
    }
}

#[test]
fn the_binary_form_round_trips_and_names_where_it_is_bad() {
    let book = Book::shipped_proof();
    let bytes = book.to_bytes();
    assert_eq!(bytes.len(), 8 + 8 * book.len());
    assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
    assert_eq!(Book::from_bytes(b"C4BOOK1\n"), Ok(Book::default()));

    let bad = |offset| Err(BookError::Bytes { offset });
    assert_eq!(Book::from_bytes(b""), bad(0));
    assert_eq!(Book::from_bytes(b"C4BOOK2\n"), bad(0));
    // A cut-off entry.
    assert_eq!(
        Book::from_bytes(&bytes[..bytes.len() - 3]),
        bad(bytes.len() - 8)
    );
    // Two entries out of order.
    let mut swapped = bytes.clone();
    let (first, second) = swapped[8..24].split_at_mut(8);
    first.swap_with_slice(second);
    assert_eq!(Book::from_bytes(&swapped), bad(16));
    // A bound beyond 18: the upper bound's 6 bits all set.
    let mut high = bytes.clone();
    high[15] |= 0x1f;
    assert_eq!(Book::from_bytes(&high), bad(8));
    // A key that is not canonical: the mirror image of a position that is not symmetric.
    let position: Position = "1".parse().unwrap();
    let mirrored = position.mirror_key().max(position.key());
    let one = Book::from_bounds([(position, -2, -2)]).unwrap().to_bytes();
    let mut wrong = one.clone();
    wrong[8..16].copy_from_slice(&(mirrored | 16 << 49 | 16 << 55).to_le_bytes());
    assert_eq!(Book::from_bytes(&wrong), bad(8));
    assert_eq!(
        Book::from_bytes(&one).map(|b| b.bounds(position.mirror())),
        Ok(Some((-2, -2)))
    );
}

#[test]
fn merging_intersects_bounds_and_refuses_a_contradiction() {
    let a: Position = "44".parse().unwrap();
    let b: Position = "4455".parse().unwrap();
    let left = Book::from_bounds([(a, -3, 5)]).unwrap();
    let right = Book::from_bounds([(a, 0, 9), (b, 18, 18)]).unwrap();
    let both = left.merged(&right).unwrap();
    assert_eq!(both.len(), 2);
    assert_eq!(both.bounds(a), Some((0, 5)));
    assert_eq!(both.bounds(b), Some((18, 18)));
    let far = Book::from_bounds([(a, 6, 9)]).unwrap();
    assert_eq!(
        left.merged(&far),
        Err(BookError::Conflict {
            key: a.canonical_key()
        })
    );
}

#[test]
fn scores_derived_from_children_are_the_solvers() {
    // Two plies of a position of the middle of a game: the grandchildren solved, the children
    // and the position derived from them without search.
    let root: Position = "13476136561761".parse().unwrap();
    let mut solver = Solver::new();
    let grandchildren: Vec<Position> = children(root)
        .into_iter()
        .flat_map(children)
        .filter(|p| !p.can_win_next())
        .collect();
    let leaves = Book::from_bounds(grandchildren.iter().map(|&p| {
        let score = solver.score(p);
        (p, score, score)
    }))
    .unwrap();
    let levels = [vec![root], children(root)];
    let book = leaves.with_derived_scores(&levels).unwrap();
    for position in children(root).into_iter().chain([root]) {
        assert_eq!(
            book.score(position),
            Some(solver.score(position)),
            "{position:?}"
        );
    }
    let hints = book.move_scores(root);
    for column in Column::ALL {
        let expected = match root.play(column) {
            Ok(child) => Some(-solver.score(child)),
            Err(_) if root.is_winning_move(column) => Some((CELLS as i32 + 1 - 14) / 2),
            Err(_) => None,
        };
        assert_eq!(hints[column.index()], expected, "{column}");
    }
    // With one grandchild missing, its parent and the root stay unknown.
    let missing = grandchildren[0];
    let partial = Book::from_bounds(leaves.iter().filter(|e| e.0 != missing))
        .unwrap()
        .with_derived_scores(&levels)
        .unwrap();
    assert_eq!(partial.score(root), None);
    // A derived score outside the bounds a book holds is a conflict, not an answer.
    let score = solver.score(root);
    assert!(score < 18);
    let wrong = leaves
        .merged(&Book::from_bounds([(root, score + 1, 18)]).unwrap())
        .unwrap();
    assert_eq!(
        wrong.with_derived_scores(&levels),
        Err(BookError::Conflict {
            key: root.canonical_key()
        })
    );
}

#[test]
fn the_shipped_books_agree_and_answer_their_plies() {
    let proof = Book::shipped_proof();
    let exact = Book::shipped_exact();
    assert!(
        !exact.is_empty(),
        "data/connect4-exact.bin is empty or unreadable"
    );
    let replies = Book::shipped_replies();
    assert!(
        !replies.is_empty(),
        "data/connect4-replies.txt is empty or unreadable"
    );
    let shipped = proof.merged(&exact).unwrap().merged(&replies).unwrap();
    assert_eq!(Book::shipped(), shipped);
    // Every entry of the exact book is exact, and every position whose children it holds
    // already has its score: the build derived everything it could.
    assert!(exact.iter().all(|e| e.1 == e.2));
    assert_eq!(
        exact.with_derived_scores(&positions_up_to(3)).unwrap(),
        exact
    );
    // What the shipped exact book holds (docs/solver.md, "The exact book"): the score of every
    // position of 9 stones whose player cannot win at once (its build's leaves) and what they
    // derive, so every position of at most 8 stones gets every hint from it: the score of
    // each legal move, a win at once or its position's score.
    let shallow = positions_up_to(8);
    assert_eq!(
        shallow.iter().map(Vec::len).sum::<usize>(),
        129_468 + 1 + 4 + 25
    );
    for p in shallow.into_iter().flatten() {
        let hints = exact.move_scores(p);
        for (c, h) in Column::ALL.into_iter().zip(hints) {
            assert_eq!(h.is_some(), p.can_play(c), "{p:?} {c:?}: {hints:?}");
        }
    }
    // The scores of the seven first moves as Pons' solver's site shows them.
    let hints = shipped.move_scores(Position::EMPTY);
    assert_eq!(hints, [-2, -1, 0, 1, 0, -1, -2].map(Some), "{hints:?}");
    let mut solver = Solver::with_book(shipped);
    assert_eq!(solver.score(Position::EMPTY), 1);
    // X's first stone in column 2 loses (score 1 for O): its score and O's best replies with
    // no search worth the name (without the exact book, a search of millions of nodes).
    let two: Position = "2".parse().unwrap();
    assert_eq!(solver.solve(two).score, 1);
    assert!(solver.nodes() < 1000, "{} nodes", solver.nodes());
}
