// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LessonPanel: the list of lessons and, beside the run, the chosen lesson's question and its steps up to
// the one the teacher has reached (◀ / ▶ step). It knows only titles and texts; applying a lesson is the
// app's job.

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace specdec::gui {

class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    struct Entry
    {
        QString title;
        QString summary;   ///< the question the lesson settles
        QStringList steps; ///< plain texts, advanced one at a time
    };

    explicit LessonPanel(QWidget *parent = nullptr);

    void setLessons(const QList<Entry> &lessons);
    int currentLesson() const;
    void setCurrentLesson(int index);
    /// The step shown last (0-based); steps before it stay visible above it.
    int currentStep() const { return m_step; }
    void setCurrentStep(int step);
    void nextStep();
    void previousStep();
    QString explanationText() const;

signals:
    void applyRequested(int index);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void showLesson(int index);

    QListWidget *m_list;
    QTextBrowser *m_text;
    QPushButton *m_apply;
    QPushButton *m_previous;
    QPushButton *m_next;
    QLabel *m_stepLabel;
    QList<Entry> m_lessons;
    int m_step = 0;
};

} // namespace specdec::gui
